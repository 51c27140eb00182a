import { describe, expect, it } from 'vitest';
import { AppError, alreadyUsed, fieldError, notFound, validationFailed } from './errors.ts';

describe('AppError: a code and parameters, translated once when answered', () => {
  it('renders the code’s text in the caller’s language', () => {
    const error = new AppError(409, 'insufficient_balance', { params: { balance: 5, requested: 8, unit: 'stamps' } });
    expect(error.render('it').message).toBe('Saldo insufficiente: 5 timbri disponibili, 8 richiesti');
    expect(error.render('en').message).toBe('The balance is not enough: 5 stamps available, 8 requested');
    expect(notFound('voucher').render('it').message).toBe('Buono richiesto non trovato');
  });

  it('names fields by their translated label, the last named part of a path', () => {
    expect(fieldError('cost', 'required').render('it')).toEqual({ message: 'Costo è obbligatorio', fields: [{ field: 'cost', message: 'Costo è obbligatorio' }] });
    const tiers = validationFailed([{ field: 'tiers.2.minPoints', message: 'tierAbovePrevious', min: 1000 }]).render('it');
    expect(tiers.fields?.[0]).toEqual({ field: 'tiers.2.minPoints', message: expect.not.stringContaining('minPoints') });
    expect(validationFailed([{ field: 'merchantIds.3', message: 'notFound', label: 'merchant' }]).render('it').message).toBe('Esercente richiesto non trovato');
  });

  it('says what its first field says when it has no text of its own', () => {
    expect(alreadyUsed('vatNumber').render('it')).toEqual({ message: 'Partita IVA già in uso', fields: [{ field: 'vatNumber', message: 'Partita IVA già in uso' }] });
    expect(new AppError(400, 'validation', { text: 'program_required', fields: [{ field: 'programId', message: 'required' }] }).render('en').message).toBe(
      'The merchant takes part in several programs: name programId',
    );
  });
});

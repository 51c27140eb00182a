import { Card, CardContent, Typography } from '@mui/material';
import fakeDataProvider from 'ra-data-fakerest';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import { createRoot } from 'react-dom/client';
import { Admin, Datagrid, EditButton, List, NumberField, Resource, TextField, Title, type AuthProvider } from 'react-admin';
import { BrowserRouter } from 'react-router-dom';

/**
 * The react-admin anchor of the morning path (bench/anchors/README.md): its own sign-in page, layout,
 * menu and list, on its in-memory data provider. Only the sign-in form's words are ours, so that one
 * journey drives all three apps.
 */
const customers = Array.from({ length: 60 }, (_, index) => ({
  id: index + 1,
  name: `Cliente ${String(index + 1).padStart(2, '0')}`,
  email: `cliente${index + 1}@example.test`,
  points: (index * 37) % 500,
}));
const more = ['merchants', 'programs', 'ledger', 'rewards', 'news'];
const dataProvider = fakeDataProvider({ customers, ...Object.fromEntries(more.map((name) => [name, []])) });

let signedIn = false;
const authProvider: AuthProvider = {
  login: async () => {
    signedIn = true;
  },
  logout: async () => {
    signedIn = false;
  },
  checkAuth: async () => (signedIn ? undefined : Promise.reject(new Error('signed out'))),
  checkError: async () => undefined,
  getPermissions: async () => undefined,
  getIdentity: async () => ({ id: 'admin', fullName: 'admin@example.test' }),
};

const messages = {
  ...englishMessages,
  ra: { ...englishMessages.ra, auth: { ...englishMessages.ra.auth, username: 'Email', password: 'Password', sign_in: 'Accedi' } },
};
const i18nProvider = polyglotI18nProvider(() => messages, 'en');

function Dashboard() {
  return (
    <>
      <Title title="Dashboard" />
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 16, marginTop: 16 }}>
        {['Clienti', 'Punti emessi', 'Punti riscattati', 'Esercenti'].map((label, index) => (
          <Card key={label}>
            <CardContent>
              <Typography variant="overline">{label}</Typography>
              <Typography variant="h5">{(index + 1) * 1234}</Typography>
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  );
}

const CustomerList = () => (
  <List perPage={25} sort={{ field: 'name', order: 'ASC' }}>
    <Datagrid bulkActionButtons={false}>
      <TextField source="name" />
      <TextField source="email" />
      <NumberField source="points" />
      <EditButton />
    </Datagrid>
  </List>
);
const Empty = () => (
  <List>
    <Datagrid bulkActionButtons={false}>
      <TextField source="id" />
    </Datagrid>
  </List>
);

createRoot(document.getElementById('root')!).render(
  <BrowserRouter>
    <Admin dataProvider={dataProvider} authProvider={authProvider} i18nProvider={i18nProvider} dashboard={Dashboard}>
      <Resource name="customers" list={CustomerList} />
      {more.map((name) => (
        <Resource key={name} name={name} list={Empty} />
      ))}
    </Admin>
  </BrowserRouter>,
);

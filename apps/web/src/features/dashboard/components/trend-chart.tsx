// The dashboard's chart: @mantine/charts (recharts) and its styles arrive with this module only,
// loaded lazily by the dashboard (the sign-in page and the other screens never carry them).
import '@mantine/charts/styles.layer.css';
import { LineChart } from '@mantine/charts';
import type { DashboardTrendDay } from '@sf/contract/dashboard-figures';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../../lib/format.ts';

export default function TrendChart({ trend }: { trend: DashboardTrendDay[] }) {
  const { t } = useTranslation('dashboard');
  const format = useFormatters();
  const data = trend.map((day) => ({ ...day, label: format.day(day.day).slice(0, 5) }));
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="label"
      withLegend
      curveType="monotone"
      valueFormatter={(value) => format.number(value)}
      series={[
        { name: 'pointsIssued', label: t('figures.pointsIssued'), color: 'teal.6' },
        { name: 'pointsRedeemed', label: t('figures.pointsRedeemed'), color: 'blue.6' },
        { name: 'pointsExpired', label: t('figures.pointsExpired'), color: 'orange.6' },
      ]}
    />
  );
}

import '@mantine/core/styles.css';
import { AppShell, Button, Card, Container, Group, MantineProvider, NavLink, Paper, PasswordInput, SimpleGrid, Table, Text, TextInput, Title, Anchor } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Navigate, Outlet, RouterProvider, useLocation, useNavigate } from 'react-router';

/**
 * The plain Mantine anchor of the morning path (bench/anchors/README.md): sign in, land, open the
 * customers from the menu. Its "API" answers from memory at once.
 */
type Customer = { id: number; name: string; email: string; points: number };
const CUSTOMERS: Customer[] = Array.from({ length: 60 }, (_, index) => ({
  id: index + 1,
  name: `Cliente ${String(index + 1).padStart(2, '0')}`,
  email: `cliente${index + 1}@example.test`,
  points: (index * 37) % 500,
}));
let signedIn = false;
const fakeApi = {
  signIn: async () => {
    signedIn = true;
  },
  customers: async (page: number, size: number) => CUSTOMERS.slice((page - 1) * size, page * size),
};

function SignIn() {
  const navigate = useNavigate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void fakeApi.signIn().then(() => navigate('/'));
  };
  return (
    <Container size={420} py={80}>
      <Title ta="center">Accedi</Title>
      <Paper withBorder shadow="md" p={30} mt={30} radius="md" component="form" onSubmit={submit}>
        <TextInput label="Email" type="email" required />
        <PasswordInput label="Password" required mt="md" />
        <Button type="submit" fullWidth mt="xl">
          Accedi
        </Button>
      </Paper>
    </Container>
  );
}

const MENU = [
  { to: '/', label: 'Dashboard' },
  { to: '/customers', label: 'Clienti' },
  { to: '/merchants', label: 'Esercenti' },
  { to: '/programs', label: 'Programmi' },
  { to: '/ledger', label: 'Movimenti' },
  { to: '/rewards', label: 'Premi' },
  { to: '/news', label: 'News' },
];

function Shell() {
  const location = useLocation();
  if (!signedIn) return <Navigate to="/auth/login" replace />;
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm' }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Anchor component={Link} to="/" fw={700}>
            Anchor
          </Anchor>
          <Text size="sm">admin@example.test</Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav">
        {MENU.map((item) => (
          <NavLink key={item.to} component={Link} to={item.to} label={item.label} active={location.pathname === item.to} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function Landing() {
  return (
    <>
      <Title order={1} mb="md">
        Dashboard
      </Title>
      <SimpleGrid cols={{ base: 1, md: 4 }}>
        {['Clienti', 'Punti emessi', 'Punti riscattati', 'Esercenti'].map((label, index) => (
          <Card key={label} withBorder padding="md" radius="md">
            <Text size="sm" c="dimmed" fw={600} tt="uppercase">
              {label}
            </Text>
            <Text fz={28} fw={700}>
              {(index + 1) * 1234}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}

function Customers() {
  const [rows, setRows] = useState<Customer[] | null>(null);
  useEffect(() => {
    void fakeApi.customers(1, 25).then(setRows);
  }, []);
  return (
    <>
      <Title order={1} mb="md">
        Clienti
      </Title>
      <Table striped highlightOnHover withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Nome</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Punti</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(rows ?? []).map((customer) => (
            <Table.Tr key={customer.id}>
              <Table.Td>
                <Anchor component={Link} to={`/customers/${customer.id}`}>
                  {customer.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{customer.email}</Table.Td>
              <Table.Td>{customer.points}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

const router = createBrowserRouter([
  { path: '/auth/login', element: <SignIn /> },
  {
    element: <Shell />,
    children: [
      { index: true, element: <Landing /> },
      { path: 'customers', element: <Customers /> },
      { path: '*', element: <Title order={1}>Altro</Title> },
    ],
  },
]);

createRoot(document.getElementById('root')!).render(
  <MantineProvider>
    <RouterProvider router={router} />
  </MantineProvider>,
);

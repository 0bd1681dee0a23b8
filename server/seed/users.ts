/**
 * Demo accounts. Their password is made at random when the demo data is created, printed once
 * and kept in DATA_DIR/demo-accounts.txt (readable by the server's user only): no install has
 * a published password.
 */
export const DEMO_ACCOUNTS_FILE = 'demo-accounts.txt';

export type SeedUser = { key: string; email: string; firstName: string; lastName: string; isAdmin?: boolean };

export const demoUsers = [
  { key: 'admin', email: 'admin@demo.recensera.se', firstName: 'Admin', lastName: 'Demo', isAdmin: true },
  { key: 'anna', email: 'anna@demo.recensera.se', firstName: 'Anna', lastName: 'Lindqvist' },
  { key: 'erik', email: 'erik@demo.recensera.se', firstName: 'Erik', lastName: 'Johansson' },
  { key: 'sara', email: 'sara@demo.recensera.se', firstName: 'Sara', lastName: 'Nilsson' },
  { key: 'mohammed', email: 'mohammed@demo.recensera.se', firstName: 'Mohammed', lastName: 'Ali' },
  { key: 'liwei', email: 'liwei@demo.recensera.se', firstName: 'Li Wei', lastName: 'Chen' },
  { key: 'johanna', email: 'johanna@demo.recensera.se', firstName: 'Johanna', lastName: 'Virtanen' },
  { key: 'oskar', email: 'oskar@demo.recensera.se', firstName: 'Oskar', lastName: 'Bergström' },
] as const satisfies readonly SeedUser[];

export type UserKey = (typeof demoUsers)[number]['key'];

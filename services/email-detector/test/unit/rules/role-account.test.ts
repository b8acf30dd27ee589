import { isRoleAccount } from '../../../src/domain/role-account';

describe('role accounts', () => {
  it.each(['admin', 'postmaster', 'no-reply', 'no.reply', 'noreply', 'kontakt', 'accueil', 'webmaster'])(
    '%s is a role account',
    (local) => expect(isRoleAccount(local)).toBe(true),
  );
  it.each(['jane', 'adminton', 'marie.contact'])('%s is not', (local) =>
    expect(isRoleAccount(local)).toBe(false),
  );
});

describe('role account (a listed name, ignoring . _ -)', () => {
  it.each([
    ['one letter short of a role name (below)', 'admi', false],
    ['the role name (at)', 'admin', true],
    ['the name with separators', 'ad.m_i-n', true],
    ['one letter more (above: another name)', 'adminx', false],
  ])('when the local part is %s, it is a role account: %s', (_name, local, role) => {
    expect(isRoleAccount(local)).toBe(role);
  });
});

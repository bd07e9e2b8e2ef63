/**
 * Team roles of the developer space (issue 25 item 9): what each member of an account may open.
 * The one table of role → page families; the web layer guards each routes family with it
 * (`kit.allowed(family)`) and the menu shows only the allowed entries.
 */
export const ROLES = ['owner', 'developer', 'billing'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The page families of the developer space, one per routes family (`account`: the export of the account's data and its closing, owners only). */
export type PageFamily =
  | 'home'
  | 'keys'
  | 'webhooks'
  | 'mailings'
  | 'requests'
  | 'production'
  | 'balance'
  | 'billing'
  | 'logs'
  | 'audit'
  | 'settings'
  | 'team'
  | 'privacy'
  | 'account';

const EVERYONE: readonly PageFamily[] = ['home', 'settings', 'privacy'];

export const ROLE_PAGES: Readonly<Record<Role, readonly PageFamily[]>> = {
  /** Everything. */
  owner: [...EVERYONE, 'keys', 'webhooks', 'mailings', 'requests', 'production', 'balance', 'billing', 'logs', 'audit', 'team', 'account'],
  /** The integration: keys, webhooks, mailings, requests, the API call log; not money, not the team, not production access. */
  developer: [...EVERYONE, 'keys', 'webhooks', 'mailings', 'requests', 'logs'],
  /** The money: balance and top-ups, invoices, the billing profile; not keys, not webhooks. */
  billing: [...EVERYONE, 'balance', 'billing'],
};

export const mayOpen = (role: Role, family: PageFamily): boolean => ROLE_PAGES[role].includes(family);

/** French names of the roles, for the pages. */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Propriétaire',
  developer: 'Développeur',
  billing: 'Facturation',
};

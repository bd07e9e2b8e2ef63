/** The scopes of SPEC.md "Authentication" (resource:action). */
export const SCOPES = [
  'catalogue:read',
  'letters:write',
  'mailings:read',
  'mailings:write',
  'data:read',
  'ai:write',
  'requests:read',
  'requests:write',
] as const;

export type Scope = (typeof SCOPES)[number];
export type KeyMode = 'test' | 'live';

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

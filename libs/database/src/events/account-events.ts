/**
 * Events about the account itself rather than the workspace a team shares: payments, the plan,
 * team membership and API keys (CONTRACT, third wave). They go only to handlers the account owner
 * made without `X-Team-Id`; a handler made through a team never receives or subscribes to them.
 * Domain events are not among them: team members create and verify domains.
 */
export const ACCOUNT_EVENT_PREFIXES = ['payment.', 'plan.', 'team_member.', 'api_key.'] as const;

export function isAccountEvent(event: string): boolean {
  return ACCOUNT_EVENT_PREFIXES.some((prefix) => event.startsWith(prefix));
}

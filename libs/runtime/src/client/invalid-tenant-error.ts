import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A tenant name (`createClient({ tenant })`, `client.forTenant`) breaks the tenant rule, or a
 * tenant view was asked for a view of another tenant (only the client without a tenant gives those).
 */
export class InvalidTenantError extends FlotillaError {
  static override readonly errorName = 'InvalidTenantError';
  static override readonly is = errorGuard(this);
  readonly tenant: string;

  constructor(tenant: string, rule: string) {
    super(
      `The tenant ${JSON.stringify(tenant.slice(0, 80))} is invalid: ${rule}. Name tenants by that rule.`,
    );
    this.tenant = tenant;
  }
}

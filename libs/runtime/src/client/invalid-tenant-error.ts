import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A tenant name (`createClient({ tenant })`, `client.forTenant`) breaks the tenant rule. */
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

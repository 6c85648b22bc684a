import { describe, expect, it } from 'vitest';
import {
  idSchema,
  isChildRunIdForm,
  isValidRunId,
  runIdSchema,
  storedIdSchema,
  submittedRunIdSchema,
  tenantSchema,
} from './id-rule.js';
import { qualifyId, tenantOfId, unqualifyId } from './tenant-ids.js';

const childId = 'root-1.0123456789abcdef';

describe('the id rule', () => {
  it.each(['a', 'run-1', 'A_b.c-9', 'x'.repeat(200), '...', '.hidden'])('accepts %j', (id) => {
    expect(idSchema.safeParse(id).success).toBe(true);
  });

  it.each(['', '.', '..', 'a:b', 'a*', '{a}', 'a b', 'a\nb', 'a\u0000b', 'ünï', 'a~b', 'x'.repeat(201)])(
    'refuses %j',
    (id) => {
      expect(idSchema.safeParse(id).success).toBe(false);
    },
  );

  it("accepts a child run's id where run ids are named, never as a submitted run id", () => {
    expect(isChildRunIdForm(childId)).toBe(true);
    expect(runIdSchema.safeParse(childId).success).toBe(true);
    expect(submittedRunIdSchema.safeParse(childId).success).toBe(false);
    expect(submittedRunIdSchema.safeParse('root-1.0123456789abcdeg').success).toBe(true);
    expect(submittedRunIdSchema.safeParse('12345').success).toBe(false);
  });
});

describe('tenant-qualified ids', () => {
  it('qualify an id with `<tenant>~` and read it back', () => {
    expect(qualifyId('acme', 'r1')).toBe('acme~r1');
    expect(qualifyId(undefined, 'r1')).toBe('r1');
    expect(tenantOfId('acme~r1.0123456789abcdef')).toBe('acme');
    expect(tenantOfId('r1')).toBeUndefined();
    expect(unqualifyId('acme~r1')).toBe('r1');
  });

  it('are valid stored ids and job ids, but no id a client can pass', () => {
    expect(storedIdSchema.safeParse('acme~c1').success).toBe(true);
    expect(isValidRunId(`acme~${childId}`)).toBe(true);
    expect(isValidRunId('acme~r1~deadline')).toBe(false);
    expect(runIdSchema.safeParse('acme~r1').success).toBe(false);
  });

  it.each(['', 'a.b', 'a~b', 'a b', 'x'.repeat(65), 'ü'])('refuse the tenant name %j', (tenant) => {
    expect(tenantSchema.safeParse(tenant).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../config/invalid-config-error.js';
import { createWorker } from './create-worker.js';

/** Start-up checks of worker versioning: they throw before any connection is opened. */
describe('createWorker with versioning', () => {
  it("refuses versioning: 'pinned' without a build id, naming FLOTILLA_BUILD_ID", () => {
    let caught: unknown;
    try {
      createWorker({ agents: [], versioning: 'pinned', env: {} });
    } catch (error) {
      caught = error;
    }
    expect(InvalidConfigError.is(caught)).toBe(true);
    expect(caught).toMatchObject({ variable: 'FLOTILLA_BUILD_ID' });
    expect((caught as Error).message).toContain('FLOTILLA_VERSIONING=pinned');
  });

  it('refuses compatible builds on a worker that does not pin runs, naming FLOTILLA_COMPATIBLE_WITH', () => {
    expect(() =>
      createWorker({ agents: [], env: { FLOTILLA_BUILD_ID: 'v2', FLOTILLA_COMPATIBLE_WITH: 'v1' } }),
    ).toThrow(/FLOTILLA_COMPATIBLE_WITH="v1" is invalid: .*FLOTILLA_VERSIONING=pinned/);
  });
});

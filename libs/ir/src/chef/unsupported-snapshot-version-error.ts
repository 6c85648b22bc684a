import { errorGuard, FlotillaError } from '../flotilla-error.js';

/**
 * Thrown by {@link ContextChef.restore} when a snapshot was written by a newer version of
 * `@flotilla/ir` (its `schemaVersion` is higher than this version can read). Upgrade the
 * package on this worker, or restore the snapshot on a worker that runs the newer version.
 */
export class UnsupportedSnapshotVersionError extends FlotillaError {
  static override readonly errorName = 'UnsupportedSnapshotVersionError';
  static override readonly is = errorGuard(this);
  /** The `schemaVersion` found in the snapshot. */
  readonly found: number;
  /** The newest `schemaVersion` this version of `@flotilla/ir` reads. */
  readonly supported: number;

  constructor(found: number, supported: number) {
    super(
      `ContextChef snapshot has schemaVersion ${found}, but this @flotilla/ir reads up to ${supported}. ` +
        'Upgrade @flotilla/ir where the snapshot is restored (snapshots are never downgraded).',
    );
    this.found = found;
    this.supported = supported;
  }
}

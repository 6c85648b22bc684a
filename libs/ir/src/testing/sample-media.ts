/**
 * Test support for the IR suites (kept out of the package build): the shortest base64 data the
 * media sniffing recognises, for attachments whose bytes do not matter.
 */

/** Base64 of the PNG signature's first bytes (sniffs as `image/png`). */
export const PNG = 'iVBORw0KGgo=';

/** Base64 of `%PDF-1.4` (sniffs as `application/pdf`). */
export const PDF = 'JVBERi0xLjQ=';

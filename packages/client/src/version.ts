/**
 * This package's version, sent in `User-Agent: switchboard-node/<version>` (a test keeps it equal to package.json's).
 */
export const SDK_VERSION = '1.0.0';

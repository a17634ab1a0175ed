/** This package's version, announced in the MCP `initialize` reply (a test keeps it equal to package.json's). */
export const MCP_VERSION = '1.0.0';

#!/usr/bin/env node
// The `switchboard-mcp` command: the built stdio server. A file of its own, not dist/cli.js itself, so that a fresh
// install of the workspace (before any build) finds the bin it links.
import '../dist/cli.js';

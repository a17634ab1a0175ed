/** The brand mark as the tab icon; without one, browsers ask the API for /favicon.ico and get its JSON 404. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3f3bbf"/><stop offset="1"
  stop-color="#7a5af8"/></linearGradient></defs>
<rect width="32" height="32" rx="8" fill="url(#g)"/></svg>`;

/**
 * The portal's stylesheet. Kept in a module (not a .css file) so `tsc` carries it into dist/ with the code and the
 * server never depends on a source folder at runtime. System fonts only: no font downloads.
 * Colours meet WCAG AA contrast on their backgrounds; every interactive element has a visible focus ring.
 */
export const PORTAL_CSS = `
:root {
  --bg: #f6f7fb; --surface: #ffffff; --text: #1f2430; --muted: #4a5263; --border: #d9dde7;
  --primary: #3f3bbf; --primary-hover: #302ca0; --primary-text: #ffffff;
  --danger: #b42318; --danger-hover: #912018; --success-bg: #ecfdf3; --success-border: #12805c; --success-text: #05603a;
  --warning-bg: #fffaeb; --warning-border: #b54708; --error-bg: #fef3f2; --focus: #b54708;
  --radius: 10px; --header-h: 64px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--text); background: var(--bg); line-height: 1.5; -webkit-text-size-adjust: 100%;
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--primary); text-underline-offset: 2px; }
a:hover { color: var(--primary-hover); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; border-radius: 4px; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.92em; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0 0 0.5rem; }
h2 { font-size: 1.15rem; margin: 0 0 0.75rem; }
p { margin: 0 0 0.75rem; }
.skip-link { position: absolute; left: 0.5rem; top: -3rem; background: var(--surface); padding: 0.5rem 1rem;
  z-index: 100; border-radius: var(--radius); }
.skip-link:focus { top: 0.5rem; }
.site-header { background: var(--surface); border-bottom: 1px solid var(--border); min-height: var(--header-h);
  position: sticky; top: 0; z-index: 50; }
.header-inner { max-width: 1100px; margin: 0 auto; padding: 0.6rem 1.25rem; display: flex; align-items: center;
  gap: 1rem 1.5rem; flex-wrap: wrap; }
.brand { display: flex; align-items: center; gap: 0.6rem; text-decoration: none; color: var(--text); font-weight: 700; }
.brand-mark { width: 28px; height: 28px; border-radius: 8px;
  background: linear-gradient(135deg, var(--primary), #7a5af8); display: inline-block; }
.brand small { display: block; font-weight: 500; color: var(--muted); font-size: 0.78rem; line-height: 1; }
.site-nav ul { list-style: none; display: flex; gap: 0.25rem; margin: 0; padding: 0; }
.site-nav a { display: block; padding: 0.45rem 0.75rem; border-radius: 8px; text-decoration: none; color: var(--muted);
  font-weight: 600; white-space: nowrap; }
.site-nav a:hover { background: var(--bg); color: var(--text); }
.site-nav a[aria-current="page"] { background: #eeedfd; color: var(--primary); }
.account { margin-left: auto; display: flex; align-items: center; gap: 0.75rem; font-size: 0.9rem; color: var(--muted);
  }
.account form { margin: 0; }
main { flex: 1; width: 100%; max-width: 1100px; margin: 0 auto; padding: 2rem 1.25rem 3rem; }
main.wide { max-width: none; padding: 0; }
.lead { color: var(--muted); max-width: 60ch; margin-bottom: 1.25rem; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  padding: 1.25rem 1.5rem; margin: 0 0 1.5rem; box-shadow: 0 1px 2px rgba(16, 24, 40, 0.05); }
.card.narrow { max-width: 440px; margin: 3rem auto; }
.card.success { background: var(--success-bg); border-color: var(--success-border); }
.card.warning { background: var(--warning-bg); border-color: var(--warning-border); }
.alert { border-radius: var(--radius); padding: 0.75rem 1rem; margin: 0 0 1rem; border: 1px solid; }
.alert.error { background: var(--error-bg); border-color: var(--danger); color: #7a271a; }
.alert.info { background: var(--success-bg); border-color: var(--success-border); color: var(--success-text); }
label { display: block; font-weight: 600; margin: 0 0 0.3rem; }
.hint { display: block; color: var(--muted); font-size: 0.88rem; font-weight: 400; margin-top: 0.15rem; }
.field { margin: 0 0 1rem; }
input[type="text"], input[type="email"], input[type="password"], input[type="url"] {
  width: 100%; font: inherit; padding: 0.6rem 0.75rem; border: 1px solid #98a2b3; border-radius: 8px;
    background: var(--surface); color: var(--text); min-height: 44px;
}
input[aria-invalid="true"] { border-color: var(--danger); }
.field-error { color: var(--danger); font-size: 0.9rem; margin: 0.3rem 0 0; }
.button { display: inline-flex; align-items: center; justify-content: center; gap: 0.4rem; font: inherit;
  font-weight: 600; padding: 0.55rem 1rem; min-height: 44px;
  border-radius: 8px; border: 1px solid var(--primary); background: var(--primary); color: var(--primary-text);
    cursor: pointer; text-decoration: none; }
.button:hover { background: var(--primary-hover); border-color: var(--primary-hover); color: var(--primary-text); }
.button.secondary { background: var(--surface); color: var(--primary); }
.button.secondary:hover { background: #eeedfd; color: var(--primary-hover); }
.button.danger { background: var(--danger); border-color: var(--danger); }
.button.danger:hover { background: var(--danger-hover); border-color: var(--danger-hover); }
.button.small { min-height: 36px; padding: 0.3rem 0.75rem; font-size: 0.9rem; }
.button.link { background: none; border: none; color: var(--primary); padding: 0.3rem 0.5rem; min-height: 36px;
  text-decoration: underline; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
.inline-form { display: flex; gap: 0.75rem; align-items: flex-end; flex-wrap: wrap; }
.inline-form .field { flex: 1 1 260px; margin: 0; }
.key-box { display: flex; gap: 0.5rem; flex-wrap: wrap; margin: 0.5rem 0 1rem; }
.key-box input { flex: 1 1 320px; font-family: ui-monospace, Menlo, Consolas, monospace; background: var(--surface); }
.key-box textarea { flex: 1 1 320px; font-family: ui-monospace, Menlo, Consolas, monospace; background: var(--surface);
  padding: 0.5rem 0.75rem; resize: vertical; }
.key-box textarea + .button { align-self: flex-start; }
table { width: 100%; border-collapse: collapse; font-size: 0.95rem; }
th, td { text-align: left; padding: 0.65rem 0.75rem; border-bottom: 1px solid var(--border); vertical-align: middle; }
th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
tr:last-child td { border-bottom: none; }
.badge { display: inline-block; padding: 0.1rem 0.55rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; }
.badge.active { background: var(--success-bg); color: var(--success-text); }
.badge.revoked { background: #f2f4f7; color: #344054; }
.badge.pending { background: #eff8ff; color: #175cd3; }
.badge.failed { background: var(--error-bg); color: var(--danger); }
fieldset.checks { border: none; padding: 0; }
fieldset.checks legend { font-weight: 600; padding: 0; margin: 0 0 0.3rem; }
label.check { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; align-items: baseline; font-weight: 400;
  margin: 0.35rem 0; }
label.check input { width: 18px; height: 18px; margin: 0; align-self: center; }
label.check .hint { display: inline; margin: 0; }
code.wrap { overflow-wrap: anywhere; }
dl.details { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1.25rem; margin: 0 0 1.25rem; }
dl.details dt { font-weight: 600; color: var(--muted); }
dl.details dd { margin: 0; }
.actions form { margin: 0; }
.muted { color: var(--muted); }
dl.details { display: grid; grid-template-columns: max-content 1fr; gap: 0.3rem 1rem; margin: 0 0 1rem; }
dl.details dt { font-weight: 600; color: var(--muted); }
dl.details dd { margin: 0; overflow-wrap: anywhere; }
.downloads { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); }
.downloads li { display: flex; flex-direction: column; gap: 0.5rem; }
.downloads li p { flex: 1; }
.reference-bar { background: var(--surface); border-bottom: 1px solid var(--border); }
.reference-bar .inner { max-width: 1100px; margin: 0 auto; padding: 0.6rem 1.25rem; display: flex; flex-wrap: wrap;
  gap: 0.5rem 1.5rem; align-items: center; }
.reference-bar p { margin: 0; flex: 1 1 380px; color: var(--muted); font-size: 0.92rem; }
.key-form { display: flex; align-items: center; gap: 0.5rem; flex: 0 1 460px; }
.key-form label, .key-form .button { margin: 0; white-space: nowrap; font-size: 0.92rem; }
.key-form input[type="password"] { min-height: 36px; padding: 0.35rem 0.6rem; }
[hidden] { display: none !important; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.site-footer { border-top: 1px solid var(--border); color: var(--muted); font-size: 0.85rem; }
.site-footer .inner { max-width: 1100px; margin: 0 auto; padding: 1rem 1.25rem; }
@media (max-width: 720px) {
  .header-inner { padding: 0.5rem 1rem; }
  .site-nav { order: 3; width: 100%; overflow-x: auto; }
  main { padding: 1.25rem 1rem 2rem; }
  .card { padding: 1rem; }
  .card.narrow { margin: 1.5rem auto; }
  .account .who { display: none; }
  dl.details { grid-template-columns: 1fr; }
  dl.details dd { margin-bottom: 0.5rem; }
  table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.stack tr { display: block; border-bottom: 1px solid var(--border); padding: 0.5rem 0; }
  table.stack tr:last-child { border-bottom: none; }
  table.stack td { display: flex; justify-content: space-between; gap: 1rem; border: none; padding: 0.3rem 0; }
  table.stack td::before { content: attr(data-label); font-weight: 600; color: var(--muted); }
  table.stack td:empty { display: none; }
  table.stack td > span { text-align: right; }
  dl.details { grid-template-columns: 1fr; gap: 0; }
  dl.details dd { margin-bottom: 0.5rem; }
}
`;

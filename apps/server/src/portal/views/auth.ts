import type { AssetUrls } from '../assets.js';
import { html } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { hiddenCsrf, page, type Viewer } from './layout.js';

export interface SignInView {
  csrfToken: string;
  email?: string;
  /** Shown in an alert above the form. */
  error?: string;
  /** Asked for only when the email and password match accounts on several platforms. */
  askPlatform?: boolean;
  platformDomain?: string;
  notice?: string;
}

export function signInPage(assets: AssetUrls, view: SignInView): string {
  const errorId = view.error ? 'sign-in-error' : undefined;
  return page({
    title: 'Sign in',
    assets,
    body: html`<div class="card narrow">
      <h1>Sign in</h1>
      <p class="lead">Use your Switchboard account to manage API keys, try requests and download the API definition.</p>
      ${view.notice && html`<p class="alert info" role="status">${view.notice}</p>`}
      ${view.error && html`<p class="alert error" role="alert" id="${errorId}">${view.error}</p>`}
      <form method="post" action="${PORTAL_PATH}/sign-in" novalidate>
        ${hiddenCsrf(view.csrfToken)}
        <div class="field">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="${view.email ?? ''}"
            ${errorId && html`aria-describedby="${errorId}"`} ${!view.email && html`autofocus`}>
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required
            ${errorId && html`aria-describedby="${errorId}"`} ${view.email && !view.askPlatform && html`autofocus`}>
        </div>
        ${
          view.askPlatform &&
          html`<div class="field">
          <label for="platform">Platform domain
            <span class="hint" id="platform-hint">Your email is registered on several platforms; enter the domain of
              the one to open, e.g. acme.example.com.</span></label>
          <input id="platform" name="platform" type="text" required autofocus aria-describedby="platform-hint"
            value="${view.platformDomain ?? ''}">
        </div>`
        }
        <button class="button" type="submit">Sign in</button>
      </form>
    </div>`,
  });
}

export function forbiddenPage(assets: AssetUrls, viewer: Viewer): string {
  return page({
    title: 'No access',
    assets,
    viewer,
    body: html`<div class="card narrow warning">
      <h1>You don’t have access to the Developer Portal</h1>
      <p>You are signed in as <strong>${viewer.email}</strong> (${viewer.platformName}), but the portal needs the
        <code>settings:api</code> permission, which this account does not have.</p>
      <p>Ask an owner of your platform to grant it, then sign in again.</p>
      <form method="post" action="${PORTAL_PATH}/sign-out">${hiddenCsrf(viewer.csrfToken)}
        <button class="button" type="submit">Sign out</button></form>
    </div>`,
  });
}

export interface MessageView {
  title: string;
  message: string;
  viewer?: Viewer;
  link?: { href: string; label: string };
}

/** 404s, expired forms, unexpected failures: a short page with a way back. */
export function messagePage(assets: AssetUrls, view: MessageView): string {
  const link = view.link ?? { href: `${PORTAL_PATH}/`, label: 'Back to the portal' };
  return page({
    title: view.title,
    assets,
    viewer: view.viewer,
    body: html`<div class="card narrow">
      <h1>${view.title}</h1>
      <p>${view.message}</p>
      <p><a href="${link.href}">${link.label}</a></p>
    </div>`,
  });
}

import { Readable } from 'node:stream';
import type { MediaContent, MediaFile } from '../messages/index.js';

/**
 * The sandbox has no provider keeping customers' files, so every file of a sandbox message is this placeholder: a
 * 1×1 transparent PNG. Code written against the sandbox goes through chat/media/get and the link exactly as on
 * WhatsApp and gets a real (tiny) image back.
 */
const PLACEHOLDER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export async function describeSandboxMedia(): Promise<MediaFile> {
  return { mimeType: 'image/png', size: PLACEHOLDER_PNG.length };
}

export async function openSandboxMedia(): Promise<MediaContent> {
  return { ...(await describeSandboxMedia()), body: Readable.from([PLACEHOLDER_PNG]) };
}

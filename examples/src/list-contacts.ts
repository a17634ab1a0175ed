// List contacts: every page, fetched as the loop asks for more. `pnpm list-contacts [search]`.
import { sb } from './env.js';

const search = process.argv[2];
const { data: channels } = await sb.workspace.channels.list();
for (const channel of channels) {
  console.log(`# ${channel.name}`);
  for await (const contact of sb.workspace.contacts.list.all({ channelId: channel.id, search, limit: 200 }))
    console.log(`${contact.name}\t+${contact.phone}\t${contact.labels.map((label) => label.name).join(', ')}`);
}

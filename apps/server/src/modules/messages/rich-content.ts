import type { Interactive, InteractiveReply, Location, Reaction } from '@switchboard/contract';

/** What an interactive message, a reaction or a location carries beside its readable text, as a row keeps it. */
export interface RichContent {
  interactive?: Interactive | InteractiveReply | null;
  reaction?: Reaction | null;
  location?: Location | null;
}

import { describe, expect, it } from 'vitest';
import { TOOLS } from './generated/tools.js';
import { selectTools, ToolSelectionError } from './tool-set.js';

const names = (selector?: string) => selectTools(selector).map((tool) => tool.name);

describe('selectTools', () => {
  it('offers every tool when nothing is selected', () => {
    expect(names()).toEqual(TOOLS.map((tool) => tool.name));
    expect(names(' , ')).toEqual(TOOLS.map((tool) => tool.name));
  });

  it('keeps only read-only tools for `read`', () => {
    const reads = selectTools('read');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((tool) => tool.annotations.readOnlyHint)).toBe(true);
    expect(reads.length).toBe(TOOLS.filter((tool) => tool.annotations.readOnlyHint).length);
  });

  it('narrows to groups, prefixes and names, and combines them with `read`', () => {
    expect(new Set(selectTools('contacts,chat').map((tool) => tool.group))).toEqual(new Set(['contacts', 'chat']));
    expect(names('chat_notes')).toEqual(['chat_notes_manage', 'chat_notes_list']);
    expect(names('contacts_get,labels_list')).toEqual(['contacts_get', 'labels_list']);
    expect(names('read,chat_notes')).toEqual(['chat_notes_list']);
    // A group as its path spells it, in any case.
    expect(names('Custom-Fields')).toEqual(['custom_fields_list']);
  });

  it('does not match a prefix inside a word', () => {
    expect(() => selectTools('contact')).toThrow(ToolSelectionError);
  });

  it('refuses a selector that names nothing, saying which groups there are', () => {
    expect(() => selectTools('read,contcts')).toThrow(/^tools: no tool group or tool named "contcts"; .*contacts/);
  });
});

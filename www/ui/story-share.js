// A story document in and out of the page (www/stories/share.js does the reading and
// writing): Share story copies a link carrying the whole document, Download story saves it
// as <id>.json, Open story… (a file input) and a .json file dropped on the page open one
// (as the story editor's Save does, www/ui/story-editor.js: openChecked),
// and main.js opens a link's `story=` through fromLink. An opened story is registered like
// a built-in one (ExperimentState.addOpened), listed under "Opened stories" in the story
// menu and applied as a built-in one is (main.js's applyPreset). A refused document changes
// nothing; the notice says why.

import { selectById } from '../lib/dom.js';
import { LINK_PREFIX, MAX_LINK_PAYLOAD, decodeStoryLink, fetchHostedStory, fileText, readStoryFile, storyLinkValue } from '../stories/share.js';
import { downloadText } from './export.js';

const $ = (id) => document.getElementById(id);

/**
 * @typedef {object} StoryShareHooks
 * @property {(text: string) => import('../../pkg/hiradix.js').FieldError[]} checkStory the engine's check
 * @property {(id: string) => Promise<boolean>} applyPreset applies a story as the menu does
 * @property {(text: string | null, how?: {fades?: boolean}) => void} notice
 */

export class StoryShare {
  /**
   * @param {{experiments: import('../stories/experiment-state.js').ExperimentState}} parts
   * @param {StoryShareHooks} hooks
   */
  constructor({ experiments }, hooks) {
    this.experiments = experiments;
    this.hooks = hooks;
  }

  wire() {
    $('btn-story-share').addEventListener('click', () => this.share());
    $('btn-story-download').addEventListener('click', () => this.download());
    const input = /** @type {HTMLInputElement} */ ($('story-file'));
    $('btn-story-open').addEventListener('click', () => input.click());
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      input.value = ''; // the same file may be opened again
      if (file) this.openFile(file);
    });
    // A file dragged over the page: the page says it may be dropped (a dashed frame).
    const hasFiles = (ev) => Boolean(ev.dataTransfer && [...ev.dataTransfer.types].includes('Files'));
    const dropping = (on) => document.body.classList.toggle('story-drop', on);
    document.addEventListener('dragover', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      ev.dataTransfer.dropEffect = 'copy';
      dropping(true);
    });
    document.addEventListener('dragleave', (ev) => {
      if (!ev.relatedTarget) dropping(false);
    });
    document.addEventListener('drop', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      dropping(false);
      const files = [...ev.dataTransfer.files];
      if (files.length !== 1) this.hooks.notice(`Drop one story document (.json) at a time (${files.length} files were dropped).`);
      else this.openFile(files[0]);
    });
    this.experiments.on('stories', () => this.syncMenu());
  }

  /**
   * Reads the story of a link's `story=` value (a compressed document or a hosted one's
   * address, resolved against `base`, the page's address) and registers it: {id} or {error}.
   * Nothing is registered from a refused document.
   * @param {string} value
   * @param {string} base
   * @returns {Promise<{id?: string, error?: string}>}
   */
  async fromLink(value, base) {
    const hosted = !value.startsWith(LINK_PREFIX);
    const read = hosted ? await fetchHostedStory(value, base, this.hooks.checkStory, fetch) : await decodeStoryLink(value, this.hooks.checkStory);
    if (read.error) return { error: read.error };
    return { id: this.experiments.addOpened(read.doc, { source: value, from: hosted ? 'host' : 'link' }) };
  }

  /**
   * Opens a story document from a file (Open story… or a drop): checked, registered and
   * applied; a refused one changes nothing and the notice says why. Resolves to whether the
   * story is shown.
   * @param {File} file
   */
  async openFile(file) {
    const { notice, checkStory } = this.hooks;
    if (!/\.json$/i.test(file.name) && file.type !== 'application/json') {
      notice(`This story could not be opened: ${file.name} is not a story document (a .json file).`);
      return false;
    }
    const read = await readStoryFile(file, checkStory);
    if (read.error) {
      notice(`This story could not be opened: ${read.error}.`);
      return false;
    }
    return this.openChecked(read.doc, 'file', `Opened the story “${read.doc.title}” from ${file.name}.`);
  }

  /**
   * Registers and applies a document the engine's checkStory has accepted (a file, or the
   * story editor's): listed under Opened stories, carried by the address bar when it fits a
   * link, by Share story and Download story. Resolves to whether the story is shown; the
   * notice starts with `said`.
   * @param {any} doc
   * @param {import('../stories/presets.js').Opened['from']} from
   * @param {string} said
   */
  async openChecked(doc, from, said) {
    const link = await storyLinkValue(doc);
    const id = this.experiments.addOpened(doc, { source: link.value ?? null, from });
    if (!(await this.hooks.applyPreset(id))) return false;
    const notes = [said];
    if (id !== doc.id) notes.push(`Its id, ${doc.id}, is a built-in story's: it is listed under Opened stories as ${id}.`);
    if (link.error) notes.push(`But ${link.error}, so the address bar does not carry it: reloading the page will not reopen it.`);
    // Nothing to add to what was done: the report goes by itself.
    this.hooks.notice(notes.join('\n'), { fades: notes.length === 1 });
    return true;
  }

  /**
   * The link that carries the current story's whole document: {url} or {error}.
   * @returns {Promise<{url?: string, error?: string}>}
   */
  async link() {
    const story = this.experiments.story;
    if (!story) return { error: 'no story is shown' };
    const value = await storyLinkValue(story.doc);
    if (value.error) return { error: value.error };
    return { url: `${location.origin}${location.pathname}?story=${value.value}` };
  }

  /** Share story: the link copied to the clipboard (or shown, when the clipboard refuses). */
  async share() {
    const story = this.experiments.story;
    if (!story) return;
    const { url, error } = await this.link();
    if (error) {
      this.hooks.notice(
        `This story cannot be shared in a link: ${error} (${MAX_LINK_PAYLOAD.toLocaleString('en')} keeps the link under the 32 KiB many browsers and servers accept).\n` +
          `Download story saves it as a file to open with Open story…, or to put beside the page (?story=stories/${story.doc.id}.json).`,
      );
      return;
    }
    const modified = this.experiments.modified()
      ? '\nIt opens the story as its document sets it, without the settings changed since (Copy link keeps them).'
      : '';
    try {
      await navigator.clipboard.writeText(url);
      this.hooks.notice(`Link to the story “${story.title}” copied to the clipboard (${url.length.toLocaleString('en')} characters).${modified}`, {
        fades: !modified,
      });
    } catch {
      this.hooks.notice(`Link to the story “${story.title}”: ${url}${modified}`);
    }
  }

  /** Download story: the current story's document as <id>.json. */
  download() {
    const story = this.experiments.story;
    if (story) downloadText(`${story.doc.id}.json`, fileText(story.doc), 'application/json');
  }

  /** The story menu's "Opened stories" group: one entry per story opened in this session. */
  syncMenu() {
    const select = selectById('preset');
    const opened = this.experiments.openedStories();
    let group = /** @type {HTMLOptGroupElement | null} */ (select.querySelector('optgroup.opened'));
    if (!group) {
      group = document.createElement('optgroup');
      group.className = 'opened';
      group.label = 'Opened stories';
      select.append(group);
    }
    group.replaceChildren(
      ...opened.map((p) => {
        const o = new Option(p.title, p.id);
        o.title = `${p.paper} (opened: ${p.id})`;
        return o;
      }),
    );
    group.hidden = !opened.length;
    select.value = this.experiments.experiment?.preset || '';
  }
}

// The chain's dead letters into the catalogue, where admins see them on the dataset page and
// replay them (lib/chain/dead-letters.ts): one collector group on each chain dead-letter topic,
// `<step group>-dead-letters`. Stateless like the steps; a dead letter that comes twice is kept
// once (its id is its place on the topic). One of a dataset deleted meanwhile is let go.
import { CHAIN_EVENTS, deadLetterGroup, deadLetterOf } from '../lib/chain/index.ts';
import type { ChainConsumer } from './chain.ts';

const collector = (group: string): ChainConsumer => ({
  group: deadLetterGroup(group),
  handle: async (deps, _event, _signal, message) => {
    const letter = deadLetterOf(message);
    if (!(await deps.store.getDataset(letter.package_id))) return;
    await deps.store.addDeadLetter(letter);
  },
});

/** `labld serve chain-dead-letters`: every collector in one process (they are light). */
export const DEAD_LETTERS_PROCESS = 'chain-dead-letters';

/** A collector for each of the chain's consumer groups. */
export const DEAD_LETTER_COLLECTORS: readonly ChainConsumer[] = Object.values(CHAIN_EVENTS).map(collector);

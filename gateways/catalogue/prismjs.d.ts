// The part of prismjs (no types of its own) the text view uses: the tokenizer, server-side.
declare module 'prismjs' {
  export class Token {
    type: string;
    alias?: string | string[];
    content: string | Token | (string | Token)[];
  }
  export type Grammar = Record<string, unknown>;
  const Prism: {
    languages: Record<string, Grammar | undefined>;
    tokenize(text: string, grammar: Grammar): (string | Token)[];
  };
  export default Prism;
}

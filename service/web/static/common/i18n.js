/* Squares: the scripts' words in the page's language. The page carries its language's
   `js` catalog as a JSON data block (#squares-strings, service/web/script_strings.py):
   {strings: {English msgid: translation, or a plural's forms}, plural: its rule}.
   Every user-visible string of a script goes through t() or nt(), which babel extracts
   (babel-js.cfg); a string without a translation stays the English msgid. */

import { $ } from "./dom.js";

const block = $("squares-strings");
const data = block ? JSON.parse(block.textContent || "{}") : {};
const STRINGS = data.strings || {};

/* The plural rules of the catalogs' Plural-Forms headers (English's and Turkish's are
   the same: one form for 1, another for the rest): an expression cannot be run (the
   CSP allows no eval), so each is written out here. */
const RULES = {
  "(n != 1)": (n) => (n !== 1 ? 1 : 0),
  "0": () => 0,
};
const pluralIndex = RULES[data.plural] || RULES["(n != 1)"];

/* `s` with each {name} replaced by params[name]; a name without a value stays. */
function fill(s, params) {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/* The translation of `msgid` with its {name} placeholders filled from `params`. */
export function t(msgid, params) {
  const s = STRINGS[msgid];
  return fill(typeof s === "string" ? s : msgid, params);
}

/* A count's words: `singular` or `plural` as the language's rule picks for `n`, with
   {n} and the other placeholders of `params` filled. */
export function nt(singular, plural, n, params) {
  const forms = STRINGS[singular];
  const all = { n, ...params };
  if (Array.isArray(forms) && forms.length) return fill(forms[Math.min(pluralIndex(n), forms.length - 1)], all);
  return fill(n === 1 ? singular : plural, all);
}

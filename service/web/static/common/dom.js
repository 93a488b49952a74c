/* Squares: the DOM helpers of every page: an element by its id, an element holding
   plain text, an SVG element, whether the tab is hidden. Text is always set with
   textContent, never parsed as HTML. */

export const $ = (id) => document.getElementById(id);

/* An HTML element with `content` as its text. */
export function text(tag, content, cls) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (cls) node.className = cls;
  return node;
}

export const SVGNS = "http://www.w3.org/2000/svg";

/* An SVG element with `attrs`, appended to `parent` when one is given. */
export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

export const tabHidden = () => document.visibilityState === "hidden";

/* Squares: the colour scheme, set before the first paint: a classic script in <head>
   (a module would run after the page is drawn). <html data-theme> is the visitor's
   choice, "light" or "dark" (the header's toggle keeps it in localStorage,
   common/header.js), else the system's prefers-color-scheme, followed as it changes
   while no choice is made. common/theme.css holds the colours of both. */
(function () {
  "use strict";
  var KEY = "squares.theme";
  var media = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function chosen() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch (e) {
      return null;
    }
  }

  function apply() {
    document.documentElement.setAttribute("data-theme", chosen() || (media && media.matches ? "dark" : "light"));
  }

  apply();
  if (media && media.addEventListener) media.addEventListener("change", apply);
  window.addEventListener("storage", function (e) {
    if (e.key === KEY) apply();
  });
})();

/* Squares: a list's filter form (form.filter, e.g. the high scores' field size)
   applies a choice at once: a changed select submits its form, so the page reloads
   filtered without a click on Show. The button stays for browsers without scripts.
   In common/: any list page may have such a form (today /highscores loads it). */

for (const form of document.querySelectorAll("form.filter")) {
  for (const select of form.querySelectorAll("select")) {
    select.addEventListener("change", () => {
      if (form.requestSubmit) form.requestSubmit();
      else form.submit();
    });
  }
}

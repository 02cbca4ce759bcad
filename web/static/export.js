// export.js: the share buttons' "Copy" (templates/_export.html). A link
// marked data-copy="URL" fetches URL (a forum post, as text) and puts it
// on the clipboard; a button marked data-copy-from="ID" copies the text
// of that element. The result is said in the section's status line.
// Without JavaScript the link opens a page with the text to copy by hand.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  function status(el, text) {
    var sec = el.closest("section");
    var st = sec && sec.querySelector(".copy-status");
    if (st) {
      st.textContent = text;
    }
  }
  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text);
    }
    return Promise.reject(new Error("no clipboard"));
  }
  document.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-copy], [data-copy-from]");
    if (!el) {
      return;
    }
    ev.preventDefault();
    var label = el.textContent.replace(/^Copy /, "");
    var text;
    if (el.hasAttribute("data-copy-from")) {
      text = Promise.resolve(document.getElementById(el.getAttribute("data-copy-from")).value);
    } else {
      text = fetch(el.getAttribute("data-copy"), { credentials: "same-origin" }).then(function (res) {
        if (!res.ok) {
          return res.json().then(function (body) {
            throw new Error(body && body.error ? body.error.message : res.statusText);
          });
        }
        return res.text();
      });
    }
    text.then(copy).then(function () {
      status(el, "Copied " + label + ": paste it in the forum.");
    }, function (err) {
      if (el.hasAttribute("href") && err.message === "no clipboard") {
        window.location = el.getAttribute("href"); // the page to copy from by hand
        return;
      }
      status(el, "Could not copy: " + err.message);
    });
  });
})();

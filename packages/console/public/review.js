// The Review page's keys (docs/review.md, "From the console"): j / k move between checks, s and h press the
// row's "Spam" and "Not spam" buttons, u its "Undo"; "select all" for bulk corrections. Every action is a
// button of the page's plain form, which works the same without this script.
(function () {
  'use strict';
  var table = document.getElementById('review-rows');
  if (!table) return;
  var rows = Array.prototype.slice.call(table.querySelectorAll('tbody tr[data-check]'));
  var all = document.getElementById('select-all');
  var boxes = table.querySelectorAll('tbody input[name="ids"]');
  if (all) {
    all.hidden = false;
    all.addEventListener('change', function () {
      for (var i = 0; i < boxes.length; i++) boxes[i].checked = all.checked;
    });
  }
  function current() {
    var active = document.activeElement;
    return rows.indexOf(active && active.closest ? active.closest('tr') : null);
  }
  function focusRow(index) {
    if (index >= 0 && index < rows.length) rows[index].focus();
  }
  // After a correction the page comes back at the corrected row.
  var start = location.hash ? document.getElementById(location.hash.slice(1)) : null;
  if (start && rows.indexOf(start) >= 0) start.focus();
  var KEYS = { s: 's', h: 'h', u: 'u' };
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    var target = event.target;
    var typing =
      target.tagName === 'SELECT' ||
      target.tagName === 'TEXTAREA' ||
      (target.tagName === 'INPUT' && target.type !== 'checkbox');
    if (typing) return;
    var index = current();
    if (event.key === 'j') focusRow(index < 0 ? 0 : index + 1);
    else if (event.key === 'k') focusRow(index < 0 ? 0 : index - 1);
    else if (KEYS[event.key] && index >= 0) {
      var button = rows[index].querySelector('button[data-key="' + KEYS[event.key] + '"]');
      if (!button) return;
      button.click();
    } else return;
    event.preventDefault();
  });
})();

// The console's only script: draws the traffic chart from the JSON block the page carries (no inline code,
// so the Content-Security-Policy can refuse every inline script).
(function () {
  'use strict';
  var source = document.getElementById('chart-data');
  var target = document.getElementById('chart');
  if (!source || !target || typeof uPlot === 'undefined') return;
  var data = JSON.parse(source.textContent);
  var colours = { ham: '#1a7f37', suspicious: '#b35900', spam: '#c62828' };
  var verdicts = ['ham', 'suspicious', 'spam'];
  function size() {
    return { width: Math.max(260, target.clientWidth), height: 220 };
  }
  // The intervals are UTC hours or days: label them in UTC, in the page's language.
  var format = new Intl.DateTimeFormat(document.documentElement.lang, {
    timeZone: 'UTC',
    month: 'short',
    day: 'numeric',
    hour: data.hourly ? '2-digit' : undefined,
    minute: data.hourly ? '2-digit' : undefined,
  });
  function label(seconds) {
    return format.format(new Date(seconds * 1000));
  }
  var options = Object.assign(size(), {
    scales: { x: { time: true } },
    series: [
      {
        label: data.startLabel,
        value: function (u, seconds) {
          return seconds == null ? '–' : label(seconds);
        },
      },
    ].concat(
      verdicts.map(function (verdict) {
        return { label: data.labels[verdict], stroke: colours[verdict], width: 2, points: { show: true } };
      }),
    ),
    axes: [
      {
        // Ticks on the intervals themselves (uPlot's own would put two "Nov 17" on one day), as many as fit.
        splits: function (u) {
          var step = Math.max(1, Math.ceil(data.x.length / Math.max(2, Math.floor(u.width / 90))));
          return data.x.filter(function (x, index) {
            return index % step === 0;
          });
        },
        values: function (u, ticks) {
          return ticks.map(label);
        },
      },
      {},
    ],
  });
  var chart = new uPlot(
    options,
    [data.x].concat(
      verdicts.map(function (verdict) {
        return data[verdict];
      }),
    ),
    target,
  );
  window.addEventListener('resize', function () {
    chart.setSize(size());
  });
})();

// webagent console: the live runs of this machine, the past runs of the
// console's folders, and the replays it started. Plain DOM, no build step.
// run.js shows one past run; both share window.wc.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  // The token leaves the address bar (and so the history and any
  // screenshot of it) at once; the page keeps it for its requests.
  const q = new URLSearchParams(location.search);
  if (q.get('t')) {
    sessionStorage.setItem('console-token', q.get('t'));
    history.replaceState(null, '', '/' + location.hash);
  }
  const token = sessionStorage.getItem('console-token') || '';
  const st = { runs: [], live: [], replays: [], replay: false, timeout: 0, maxReplays: 0, failures: 0 };

  // el makes an element: el('td', {class: 'x'}, 'text', child, ...).
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e[k] = v;
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k instanceof Node ? k : String(k));
    return e;
  }

  // url adds the token to a path of the console.
  function url(path) { return path + (path.includes('?') ? '&' : '?') + 't=' + encodeURIComponent(token); }

  async function api(path, opts) {
    const r = await fetch(url(path), opts);
    const text = await r.text();
    if (!r.ok) {
      const err = new Error(text.trim() || r.statusText);
      err.status = r.status;
      throw err;
    }
    return text ? JSON.parse(text) : null;
  }

  function status(text, cls) { const s = $('status'); s.textContent = text; s.className = 'status ' + (cls || ''); }

  function when(iso) {
    if (!iso || iso.startsWith('0001')) return '—';
    const d = new Date(iso), now = new Date();
    const sameDay = d.toDateString() === now.toDateString();
    return sameDay ? d.toLocaleTimeString() : d.toLocaleString();
  }
  function ago(iso) {
    const s = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
    if (s < 90) return Math.round(s) + ' s ago';
    if (s < 5400) return Math.round(s / 60) + ' min ago';
    return when(iso);
  }
  function duration(ms) {
    if (!ms) return '—';
    if (ms < 1000) return ms + ' ms';
    const s = ms / 1000;
    if (s < 60) return s.toFixed(1) + ' s';
    return Math.floor(s / 60) + ' min ' + Math.round(s % 60) + ' s';
  }
  function codeTag(r) {
    if (!r.ended) return el('span', { class: 'code none', title: 'no end event: still running, or killed' }, 'DID NOT END');
    return el('span', { class: 'code' + (r.status === 'success' ? ' ok' : '') }, r.code);
  }

  // Live runs, with their links: the control link watches, answers and
  // takes over; the watch link only watches.
  function showLive(list, err) {
    st.live = list;
    const body = $('live').tBodies[0];
    body.replaceChildren();
    for (const e of list) {
      const mine = e.replay ? el('span', { class: 'tag' }, 'replay ' + e.replay + ' of this console') : null;
      body.append(el('tr', { 'data-pid': e.pid },
        el('td', { class: 'when' }, when(e.started), el('br'), el('small', {}, ago(e.started))),
        el('td', {}, e.title || 'webagent', mine),
        el('td', { class: 'task' }, e.task || el('span', { class: 'empty' }, '(a session: no task)')),
        el('td', { class: 'num' }, 'pid ' + e.pid),
        el('td', { class: 'actions' },
          el('a', { class: 'button primary open-live', href: e.control, target: '_blank', rel: 'noopener noreferrer',
            title: 'Watch it, answer its questions and take over' }, 'Open live view'), ' ',
          el('a', { class: 'button', href: e.view, target: '_blank', rel: 'noopener noreferrer', title: 'A link that only watches' }, 'Watch only'))));
    }
    $('live').hidden = list.length === 0;
    $('nolive').hidden = list.length !== 0;
    $('nolive').textContent = err || 'No live run on this machine. A run started with webagent run --live shows here while it runs.';
    $('livecount').textContent = list.length ? '(' + list.length + ')' : '';
  }

  function showRuns(d) {
    st.runs = d.runs || [];
    st.replay = !!d.replay;
    st.timeout = d.replay_timeout_s;
    st.maxReplays = d.max_replays;
    $('where').textContent = (d.dirs || []).length ? 'folders: ' + d.dirs.join(', ') : '';
    $('notes').replaceChildren(...(d.notes || []).map((n) => el('div', {}, n)));
    const body = $('runs').tBodies[0];
    body.replaceChildren();
    for (const r of st.runs) {
      const open = () => { location.hash = '#run=' + r.id; };
      body.append(el('tr', { class: 'open', 'data-id': r.id, onclick: open },
        el('td', { class: 'when' }, when(r.started)),
        el('td', { class: 'task' }, r.name ? el('div', { class: 'name' }, r.name) : null, r.task || '(no task recorded)',
          r.kind === 'cache' ? el('span', { class: 'tag', title: 'an entry of a run cache' }, 'cache') : null,
          r.problem ? el('div', { class: 'msg' }, r.problem) : null),
        el('td', { class: 'url', title: r.url }, r.url || '—'),
        el('td', {}, codeTag(r), r.message && r.code !== 'SUCCESS' ? el('span', { class: 'msg', title: r.message }, r.message) : null),
        el('td', { class: 'num' }, r.iterations),
        el('td', { class: 'num' }, duration(r.duration_ms)),
        el('td', {}, r.took_over ? el('span', { class: 'tag person', title: 'a person took the browser over in this run' }, 'took over') : ''),
        el('td', { class: 'actions' }, el('button', { class: 'quiet', onclick: (e) => { e.stopPropagation(); open(); } }, 'Open'))));
    }
    $('runs').hidden = st.runs.length === 0;
    $('noruns').hidden = st.runs.length !== 0;
    $('runcount').textContent = st.runs.length ? '(' + st.runs.length + ')' : '';
  }

  function showReplays(list) {
    st.replays = list;
    $('replaysec').hidden = list.length === 0;
    $('replays').replaceChildren(...list.map((j) => {
      const live = st.live.find((e) => e.replay === j.id);
      const state = j.running ? 'running' : j.timed_out ? 'ended at its bound' : j.exit === 0 ? 'replayed every step (exit 0)' :
        j.exit === 1 ? 'a step could not be replayed (exit 1)' : 'ended with exit ' + j.exit;
      return el('div', { class: 'replay', 'data-replay': j.id },
        el('strong', {}, 'Replay ' + j.id), ' of ', el('a', { href: '#run=' + j.run }, j.task || 'a run'), ' · started ', ago(j.started), ' · ',
        el('span', { class: 'replaystate' }, state), ' ',
        live ? el('a', { class: 'button primary', href: live.control, target: '_blank', rel: 'noopener noreferrer' }, 'Open live view') : null,
        j.output && j.output.length ? el('pre', {}, j.output.join('\n')) : null);
    }));
  }

  async function refresh() {
    try {
      const [live, runs, replays] = await Promise.all([api('/api/live'), api('/api/runs'), api('/api/replays')]);
      showLive(live.live || [], live.error);
      showRuns(runs);
      showReplays(replays.replays || []);
      st.failures = 0;
      status('up to date · ' + new Date().toLocaleTimeString(), 'live');
    } catch (e) {
      st.failures++;
      status(e.status === 401 || e.status === 403 ? 'refused: open the URL webagent console printed' : 'the console does not answer', 'down');
      if (e.status === 401 || e.status === 403) return false;
    }
    return true;
  }

  let timer = null;
  async function poll() {
    clearTimeout(timer);
    const again = await refresh();
    if (again) timer = setTimeout(poll, $('home').hidden ? 5000 : 2000);
  }

  // route shows the list or one run, after the address's hash.
  function route() {
    const m = /^#run=([0-9a-f]+)(?:&step=(\d+))?$/.exec(location.hash);
    $('home').hidden = !!m;
    $('run').hidden = !m;
    if (m) window.wc.openRun(m[1], m[2] === undefined ? null : Number(m[2]));
    else document.title = 'webagent console';
  }
  window.addEventListener('hashchange', route);

  window.wc = { $, el, api, url, when, ago, duration, codeTag, st, poll, openRun: () => {} };
  document.addEventListener('DOMContentLoaded', () => { route(); poll(); });
})();

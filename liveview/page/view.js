// webagent's live view: the screen, the steps, the watchdog, questions,
// and control (take over, hand back). One WebSocket to the server that
// served this page; plain DOM, no build step.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const id = location.pathname.split('/')[2];
  const store = sessionStorage;
  // The token leaves the address bar (and so the history and any
  // screenshot of it) at once; the page keeps it for reconnects.
  const q = new URLSearchParams(location.search);
  if (q.get('t')) {
    store.setItem('lv-token-' + id, q.get('t'));
    history.replaceState(null, '', location.pathname);
  }
  const token = store.getItem('lv-token-' + id) || '';
  const keyName = 'lv-key-' + id;
  const st = { control: false, mine: false, state: 'agent', frame: null, ended: false, iter: null, question: null, retry: 500 };
  const lv = (window.__lv = { frames: 0, bytes: 0, lastFrame: null, onFrame: [] });
  let ws = null;
  let objectURL = null;

  function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
  function status(text, cls) { const s = $('status'); s.textContent = text; s.className = 'status ' + (cls || ''); }

  function connect() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    ws = new WebSocket(scheme + '//' + location.host + '/v/' + id + '/ws?t=' + encodeURIComponent(token));
    ws.binaryType = 'arraybuffer';
    ws.onopen = () => { st.retry = 500; status('live', 'live'); send({ type: 'hello', key: store.getItem(keyName) || '' }); };
    ws.onmessage = (e) => (typeof e.data === 'string' ? onText(JSON.parse(e.data)) : onFrame(e.data));
    ws.onclose = (e) => {
      const why = e.reason || st.bye || '';
      if (st.ended || /ended|revoked/.test(why)) {
        st.ended = true;
        status(why || 'ended', 'ended');
        setControl({ state: 'agent', mine: false });
        return;
      }
      status('reconnecting…');
      setTimeout(connect, st.retry);
      st.retry = Math.min(st.retry * 2, 8000);
    };
  }

  function onFrame(buf) {
    const n = new DataView(buf).getUint32(0);
    const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buf, 4, n)));
    const jpeg = new Blob([new Uint8Array(buf, 4 + n)], { type: 'image/jpeg' });
    if (st.filmNext !== undefined) return addFilm(st.filmNext, jpeg);
    st.frame = head;
    lv.frames++;
    lv.bytes += buf.byteLength - 4 - n;
    lv.lastFrame = head;
    const url = URL.createObjectURL(jpeg);
    const img = $('screen');
    img.onload = () => {
      if (objectURL && objectURL !== url) URL.revokeObjectURL(objectURL);
      objectURL = url;
      $('noscreen').hidden = true;
      img.hidden = false;
      lv.onFrame.forEach((f) => f(head, jpeg));
    };
    img.src = url;
  }

  function onText(m) {
    const d = m.data;
    switch (m.type) {
      case 'hello':
        st.control = d.control;
        $('title').textContent = d.title || 'webagent';
        $('task').textContent = d.task || '';
        $('steps').textContent = '';
        $('events').textContent = '';
        $('revoke').hidden = !d.control;
        break;
      case 'step': return addStep(d);
      case 'iter': st.iter = d; return tick();
      case 'screen': return screenEvent(d);
      case 'question': return showQuestion(d);
      case 'answered': if (st.question && st.question.id === d.id) hideQuestion(); return;
      case 'control': return setControl(d);
      case 'key': store.setItem(keyName, d); return;
      case 'result': return showResult(d);
      case 'film': st.filmNext = d.iteration; return;
      case 'error': return note('refused: ' + (d.message || d));
      case 'bye': st.bye = d; return;
    }
  }

  function note(text) {
    const e = document.createElement('div');
    e.textContent = new Date().toLocaleTimeString() + ' ' + text;
    $('events').prepend(e);
    while ($('events').children.length > 8) $('events').lastChild.remove();
  }

  function screenEvent(ev) {
    if (ev.kind === 'select') return showPopup(ev);
    if (ev.kind === 'navigated') return note('tab ' + ev.tab + ' went to ' + ev.text);
    if (ev.kind === 'typed') return note('typed into ' + ev.text + ' (what was typed is never shown to the model)');
    if (ev.kind === 'tab') return note('showing tab ' + ev.tab + (ev.text ? ' (' + ev.text + ')' : ''));
    note(ev.text || ev.kind);
  }

  function addStep(s) {
    const li = document.createElement('li');
    const takeover = (s.actions || []).some((a) => a.tool === 'takeover');
    if (takeover) li.className = 'takeover';
    const head = document.createElement('div');
    head.className = 'head';
    head.textContent = (takeover ? 'Takeover before iteration ' : 'Iteration ') + s.iteration + (s.url ? ' · ' + s.url : '') +
      (s.llm_ms ? ' · model ' + (s.llm_ms / 1000).toFixed(1) + ' s' : '') + (s.error ? ' · ' + s.error : '');
    li.append(head);
    const words = s.thought || s.reasoning;
    if (words) { const t = document.createElement('div'); t.className = 'thought'; t.textContent = words; li.append(t); }
    for (const a of s.actions || []) {
      const c = document.createElement('div');
      c.className = 'call';
      c.textContent = a.tool === 'takeover' ? 'takeover' : a.tool + '(' + (a.args ? JSON.stringify(a.args) : '') + ')';
      const o = document.createElement('div');
      o.className = 'outcome' + (a.error ? ' err' : '');
      o.textContent = '→ ' + a.outcome;
      li.append(c, o);
    }
    $('steps').append(li);
    li.scrollIntoView({ block: 'nearest' });
  }

  function tick() {
    const w = $('watchdog');
    const i = st.iter;
    if (st.ended) { w.textContent = 'The run ended.'; return; }
    if (!i) { w.textContent = 'Starting…'; return; }
    if (st.question) { w.textContent = 'Iteration ' + i.n + ' · waiting for your answer'; return; }
    let t = 'Iteration ' + i.n;
    if (st.state === 'held') t += ' · paused: a person has control; the iteration bound does not run';
    else if (i.deadline_ms) t += ' · ' + Math.max(0, (i.deadline_ms - Date.now()) / 1000).toFixed(0) + ' s left in its bound';
    w.textContent = t;
  }
  setInterval(tick, 250);
  tick();

  function showQuestion(d) {
    st.question = d;
    $('question').hidden = false;
    const text = d.kind === 'confirm' ? 'The agent asks to: ' + d.text.replace(/\s*yes\/no\s*$/, '') : 'The agent asks: ' + d.text;
    $('qtext').textContent = text;
    const detail = [];
    if (d.target) detail.push('On: ' + d.target);
    if (d.url) detail.push('Page: ' + d.url);
    if (d.rule) detail.push('Rule: ' + d.rule);
    if (d.form && d.form.fields) detail.push('Form: ' + d.form.fields.map((f) => f.name + '=' + f.value).join(', '));
    $('qdetail').textContent = detail.join('\n');
    const confirm = d.kind === 'confirm';
    $('qconfirm').hidden = !confirm || !st.control;
    $('qform').hidden = confirm || !st.control;
    if (!st.control) $('qdetail').textContent += '\n(Only the control link answers.)';
    tick();
  }
  function hideQuestion() { st.question = null; $('question').hidden = true; $('qanswer').value = ''; tick(); }
  $('yes').onclick = () => st.question && send({ type: 'answer', id: st.question.id, yes: true, text: 'yes' });
  $('no').onclick = () => st.question && send({ type: 'answer', id: st.question.id, yes: false, text: 'no' });
  $('qform').onsubmit = (e) => {
    e.preventDefault();
    if (st.question) send({ type: 'answer', id: st.question.id, text: $('qanswer').value });
  };

  function setControl(d) {
    st.state = d.state;
    st.mine = !!d.mine && d.state === 'held';
    const words = {
      agent: 'The agent has control.',
      requested: d.mine ? 'Taking over at the agent’s next step boundary…' : 'A viewer asked to take over.',
      asked: 'The agent asks a person to take over.',
      held: d.mine ? 'You have control. The agent waits.' : 'A person has control. The agent waits.',
    };
    $('controlstate').textContent = words[d.state] || d.state;
    const b = $('banner');
    b.hidden = d.state !== 'asked' && !(st.mine && d.idle_ms);
    if (d.state === 'asked') b.textContent = d.reason || 'The agent asks you to take over.';
    else if (st.mine) b.textContent = 'Control goes back to the agent after ' + Math.round(d.idle_ms / 1000) + ' s without input from you.';
    $('take').hidden = !st.control || st.ended || !(d.state === 'agent' || d.state === 'asked');
    $('handback').hidden = !st.control || !(d.mine && (d.state === 'held' || d.state === 'requested'));
    $('note').hidden = $('handback').hidden || d.state !== 'held';
    $('screenwrap').classList.toggle('mine', st.mine);
    if (st.mine) $('screen').focus();
    if (!d.mine && d.state === 'agent') store.removeItem(keyName);
  }
  $('take').onclick = () => send({ type: 'take' });
  $('handback').onclick = () => {
    send({ type: 'handback', key: store.getItem(keyName) || '', text: $('note').value });
    $('note').value = '';
  };
  $('revoke').onclick = () => {
    if (confirm('Make new links? Everyone watching, you too, is disconnected; the new links are printed where the run started.')) send({ type: 'revoke' });
  };

  function showResult(d) {
    const r = $('result');
    r.hidden = false;
    r.className = 'result' + (d.status === 'success' ? '' : ' failure');
    r.textContent = d.code + ': ' + d.message + (d.answer ? '\nAnswer: ' + d.answer : '') +
      '\n' + d.iterations + ' iterations in ' + (d.duration_ms / 1000).toFixed(1) + ' s';
    // The filmstrip follows the result (for a page that joins later too).
  }
  function addFilm(iteration, jpeg) {
    st.filmNext = undefined;
    const f = $('film');
    f.hidden = false;
    const fig = document.createElement('figure');
    const img = document.createElement('img');
    img.src = URL.createObjectURL(jpeg);
    img.onclick = () => { $('screen').src = img.src; };
    const cap = document.createElement('figcaption');
    cap.textContent = 'after iteration ' + iteration;
    fig.append(img, cap);
    f.append(fig);
  }

  // Input: only while this viewer holds control, in the page's CSS pixels.
  const screen = $('screen');
  function at(e) {
    const r = screen.getBoundingClientRect();
    const f = st.frame || { w: screen.naturalWidth, h: screen.naturalHeight };
    return { x: ((e.clientX - r.left) * f.w) / r.width, y: ((e.clientY - r.top) * f.h) / r.height };
  }
  function mods(e) { return (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0); }
  const buttons = ['left', 'middle', 'right'];
  function input(inp) { if (st.mine) send({ type: 'input', key: store.getItem(keyName) || '', input: inp }); }
  lv.input = input;
  let down = '';
  screen.addEventListener('mousedown', (e) => {
    if (!st.mine) return;
    e.preventDefault();
    screen.focus();
    down = buttons[e.button] || 'left';
    hidePopup();
    input({ kind: 'mousedown', ...at(e), button: down, clicks: e.detail || 1, mods: mods(e) });
  });
  screen.addEventListener('mouseup', (e) => {
    if (!st.mine) return;
    input({ kind: 'mouseup', ...at(e), button: buttons[e.button] || 'left', clicks: e.detail || 1, mods: mods(e) });
    down = '';
  });
  let moveQueued = null;
  screen.addEventListener('mousemove', (e) => {
    if (!st.mine) return;
    const first = moveQueued === null;
    moveQueued = { kind: 'mousemove', ...at(e), button: down, mods: mods(e) };
    if (first) requestAnimationFrame(() => { input(moveQueued); moveQueued = null; });
  });
  screen.addEventListener('wheel', (e) => {
    if (!st.mine) return;
    e.preventDefault();
    input({ kind: 'wheel', ...at(e), dx: e.deltaX, dy: e.deltaY, mods: mods(e) });
  }, { passive: false });
  screen.addEventListener('contextmenu', (e) => { if (st.mine) e.preventDefault(); });
  screen.addEventListener('keydown', (e) => {
    if (!st.mine) return;
    e.preventDefault();
    const text = e.key.length === 1 && !e.ctrlKey && !e.metaKey ? e.key : '';
    input({ kind: 'keydown', key: e.key, code: e.code, text, mods: mods(e) });
  });
  screen.addEventListener('keyup', (e) => {
    if (!st.mine) return;
    e.preventDefault();
    input({ kind: 'keyup', key: e.key, code: e.code, mods: mods(e) });
  });
  screen.addEventListener('paste', (e) => {
    if (!st.mine) return;
    e.preventDefault();
    const text = e.clipboardData.getData('text');
    if (text) input({ kind: 'text', text });
  });

  // A <select>'s list, which a headless screen never paints.
  let popupAt = null;
  function showPopup(ev) {
    if (!st.mine || !st.lastDown) return;
    popupAt = st.lastDown;
    const p = $('popup');
    p.textContent = '';
    for (const o of ev.options || []) {
      const d = document.createElement('div');
      d.textContent = o;
      if (o === ev.text) d.className = 'chosen';
      d.onmousedown = (e) => { e.stopPropagation(); input({ kind: 'select', ...popupAt, text: o }); hidePopup(); };
      p.append(d);
    }
    const r = screen.getBoundingClientRect();
    const f = st.frame || { w: r.width, h: r.height };
    p.style.left = (popupAt.x * r.width) / f.w + 'px';
    p.style.top = (popupAt.y * r.height) / f.h + 'px';
    p.hidden = false;
  }
  function hidePopup() { $('popup').hidden = true; }
  screen.addEventListener('mousedown', (e) => { st.lastDown = at(e); }, true);

  connect();
})();

// webagent console: one past run, its steps beside their screenshots (a
// filmstrip), stepped forward and back, and how to run it again.
'use strict';
(() => {
  const { $, el, api, url, when, duration, codeTag, st } = window.wc;
  const cur = { id: null, page: null, i: 0, confirming: false, message: '' };

  // openRun reads the run again (a run may still be writing its trace)
  // and shows step (the first when null).
  async function openRun(id, step) {
    cur.id = id;
    cur.page = null;
    cur.confirming = false;
    cur.message = '';
    $('runtask').textContent = 'Loading…';
    $('runmeta').textContent = '';
    $('step').replaceChildren();
    $('film').replaceChildren();
    let page;
    try {
      page = await api('/api/runs/' + id);
    } catch (e) {
      $('runtask').textContent = 'This run cannot be shown';
      $('runmeta').textContent = e.message;
      return;
    }
    if (cur.id !== id) return;
    cur.page = page;
    head();
    film();
    again();
    select(step === null ? 0 : step, false);
  }

  function head() {
    const r = cur.page.run;
    document.title = 'webagent console · ' + (r.name || r.task || 'run');
    $('runtask').textContent = (r.name ? r.name + ': ' : '') + (r.task || '(no task recorded)');
    const bits = [codeTag(r)];
    if (r.ended) bits.push(r.message + (r.answer && r.answer !== r.message ? ' · answer: ' + r.answer : ''));
    $('runmeta').replaceChildren(...bits,
      el('div', {}, [r.url || 'no start URL', 'started ' + when(r.started), r.iterations + ' iterations', duration(r.duration_ms),
        r.model ? 'model ' + r.model : null, r.kind === 'cache' ? 'a run cache entry' : 'a trace'].filter((x) => x).join(' · '),
      r.took_over ? el('span', { class: 'tag person' }, 'a person took over') : null),
      el('div', { class: 'cmd', title: 'the folder' }, r.dir));
    $('runproblem').hidden = !r.problem;
    $('runproblem').textContent = r.problem || '';
  }

  function isTakeover(s) { return (s.actions || []).some((a) => a.tool === 'takeover'); }
  function shotURL(i) { return url('/api/runs/' + cur.id + '/shots/' + i); }

  function film() {
    const steps = cur.page.steps;
    $('film').replaceChildren(...steps.map((s, i) => el('figure', { 'data-i': i, class: isTakeover(s) ? 'takeover' : '', onclick: () => select(i, true) },
      s.shot ? el('img', { src: shotURL(i), alt: 'after step ' + s.iteration, loading: 'lazy' }) : el('div', { class: 'blank' }, isTakeover(s) ? 'person' : 'no shot'),
      el('figcaption', {}, (isTakeover(s) ? 'takeover · ' : 'after step ') + s.iteration))));
    if (!steps.length) $('film').append(el('p', { class: 'empty' }, 'The run recorded no step.'));
  }

  // select shows step i; push records it in the address (back and forward
  // step through the history too).
  function select(i, push) {
    const steps = cur.page.steps;
    if (!steps.length) {
      $('pos').textContent = 'no step';
      $('prev').disabled = $('next').disabled = true;
      $('shot').hidden = true;
      $('noshot').textContent = 'No step was recorded.';
      $('step').replaceChildren(result());
      return;
    }
    cur.i = Math.max(0, Math.min(i, steps.length - 1));
    if (push) history.replaceState(null, '', '#run=' + cur.id + '&step=' + cur.i);
    const s = steps[cur.i];
    $('pos').textContent = 'Step ' + (cur.i + 1) + ' of ' + steps.length;
    $('prev').disabled = cur.i === 0;
    $('next').disabled = cur.i === steps.length - 1;
    document.querySelectorAll('#film figure').forEach((f) => f.classList.toggle('sel', Number(f.dataset.i) === cur.i));
    const fig = document.querySelector('#film figure.sel');
    if (fig) fig.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    const img = $('shot');
    $('shotcap').textContent = s.shot ? 'The page after iteration ' + s.iteration + ' (the step acted on ' + (s.url || 'its page') + ')' : '';
    if (s.shot) {
      img.src = shotURL(cur.i);
      img.alt = 'the page after step ' + s.iteration;
      img.hidden = false;
      $('noshot').hidden = true;
    } else {
      img.hidden = true;
      img.removeAttribute('src');
      $('noshot').hidden = false;
      $('noshot').textContent = isTakeover(s) ? 'A person had the browser here: no screenshot.' :
        s.shot_error ? 'No screenshot: ' + s.shot_error :
          cur.page.run.kind === 'cache' ? 'No screenshot: a cache entry may keep only the steps.' : 'No screenshot of this step.';
    }
    $('step').replaceChildren(...stepView(s), cur.i === steps.length - 1 ? result() : '');
    $('step').className = 'step' + (isTakeover(s) ? ' takeover' : '');
  }

  function stepView(s) {
    const out = [];
    const timing = [s.url, s.llm_ms ? 'model ' + duration(s.llm_ms) : null, s.action_ms ? 'actions ' + duration(s.action_ms) : null,
      s.usage && s.usage.total_tokens ? s.usage.total_tokens + ' tokens' : null, s.replayed || s.model_replayed ? 'from the run cache' : null];
    out.push(el('div', { class: 'head' }, timing.filter((x) => x).join(' · ')));
    out.push(el('h3', {}, isTakeover(s) ? 'A person took over before iteration ' + s.iteration : 'Iteration ' + s.iteration));
    if (s.error) out.push(el('div', { class: 'err' }, s.error));
    if (s.model_error) out.push(el('div', { class: 'err' }, 'model: ' + s.model_error));
    if (s.thought) out.push(el('div', { class: 'words', title: 'what the model wrote' }, s.thought));
    if (s.reasoning) out.push(el('details', {}, el('summary', {}, 'The model’s reasoning'), el('pre', {}, s.reasoning)));
    for (const a of s.actions || []) out.push(...action(a));
    if (!(s.actions || []).length && !s.error) out.push(el('div', { class: 'outcome' }, 'No action.'));
    return out;
  }

  function action(a) {
    if (a.tool === 'takeover') return [el('div', { class: 'outcome' }, a.outcome)];
    const args = a.args === undefined ? '' : typeof a.args === 'string' ? a.args : JSON.stringify(a.args);
    const o = el('div', { class: 'outcome' + (a.error ? ' err' : '') },
      '→ ' + (a.skipped ? 'skipped: ' : '') + (a.outcome || '') + (a.ms ? '  (' + duration(a.ms) + ')' : ''));
    return [el('div', { class: 'call' }, a.tool + '(' + args + ')'), o];
  }

  function result() {
    const r = cur.page.run;
    if (!r.ended) return el('div', { class: 'result failure' }, 'The run did not end: it is still running, or it was killed.');
    return el('div', { class: 'result' + (r.status === 'success' ? '' : ' failure') },
      r.code + ': ' + r.message + (r.answer ? '\nAnswer: ' + r.answer : '') + '\n' + r.iterations + ' iterations in ' + duration(r.duration_ms));
  }

  // again: how to run the task again. A replay (no model) starts here when
  // the console may and the run typed no secret; the command lines are
  // always shown.
  function again() {
    const p = cur.page, r = p.run, box = $('again');
    const site = (() => { try { return new URL(r.url).host; } catch (e) { return r.url || 'the recorded site'; } })();
    const kids = [el('h2', {}, 'Run again')];
    if (st.replay && !(r.secrets || []).length && !cur.confirming) {
      kids.push(el('button', { id: 'replay', class: 'primary', onclick: () => { cur.confirming = true; again(); } },
        'Replay these steps in a new browser (no model)…'));
    }
    if (cur.confirming) {
      kids.push(el('div', { class: 'confirm' },
        el('p', {}, 'This starts webagent replay: a new headless Chromium does the recorded actions again on ' + site +
          ', in order, with no model. What the run typed and sent is typed and sent again.'),
        el('p', {}, 'It shows under Live now, where you can watch it and take over; it ends after ' + Math.round(st.timeout / 60) +
          ' min at most, or when the console stops.'),
        el('div', { class: 'buttons' },
          el('button', { id: 'replaygo', class: 'go', onclick: startReplay }, 'Start the replay'),
          el('button', { class: 'quiet', onclick: () => { cur.confirming = false; again(); } }, 'Cancel'))));
    }
    if (cur.message) kids.push(el('div', { class: 'refused', id: 'replaymsg' }, cur.message));
    if ((r.secrets || []).length) {
      kids.push(el('p', {}, 'The run typed secrets (' + r.secrets.join(', ') + '); the console holds none. Replay it from a terminal, the values in these variables:'));
    } else {
      kids.push(el('p', {}, 'Replay it from a terminal:'));
    }
    kids.push(el('code', { class: 'cmd', id: 'replaycmd' }, p.command));
    kids.push(el('p', {}, 'Or run the task again with a model (it asks the model again, and costs what a run costs):'));
    kids.push(el('code', { class: 'cmd' }, p.rerun));
    box.replaceChildren(...kids);
  }

  async function startReplay() {
    $('replaygo').disabled = true;
    try {
      const j = await api('/api/runs/' + cur.id + '/replay', { method: 'POST' });
      cur.confirming = false;
      cur.message = '';
      location.hash = '';
      window.wc.poll();
      return j;
    } catch (e) {
      cur.message = 'Not started: ' + e.message;
      cur.confirming = false;
      again();
    }
    return null;
  }

  $('prev').onclick = () => select(cur.i - 1, true);
  $('next').onclick = () => select(cur.i + 1, true);
  $('back').onclick = () => { location.hash = ''; };
  document.addEventListener('keydown', (e) => {
    if ($('run').hidden || !cur.page || e.target.closest('input, textarea')) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown' || e.key === 'j') { e.preventDefault(); select(cur.i + 1, true); }
    if (e.key === 'ArrowLeft' || e.key === 'ArrowUp' || e.key === 'k') { e.preventDefault(); select(cur.i - 1, true); }
    if (e.key === 'Escape') location.hash = '';
  });
  window.wc.openRun = openRun;
})();

// snapWalk.js: the snapshot walker's walk of the rendered page (see
// snapshot.js). Given the walker's kit, it returns walkPage, which walks
// the document's flat tree (shadow roots, slots, same-origin frames) and
// writes its outline: actionable elements, headings, dialogs, images,
// lists, tables, a select's options, frames (a cross-origin one as a
// marked line that Go fills in), and the text between; and walkKids,
// which walks an element's children.
(function (k) {
  'use strict';

  const {NAME_MAX, NAME_LONG, SHORT_NAME, NAME_FROM_CONTENT, SKIP, q, clean, cut, cs, isInline, attr, kids, eachKid, hasArea, textOf, said} = k;
  const {classify, dragSource, accName, nameless, states, deepActive, refFor} = k;
  const {out, push, addText, flush, boxOf, canvas, tile, svgScene, svgTargets, boxFigure, face, PICTURE_HINT} = k;

  const VALUE_MAX = 150; // characters of a value on a page over its budget
  const VALUE_LONG = 4000; // characters of a value on a page within its budget
  const CELL_MAX = 120; // characters of a table cell shown in its row; longer cells follow the row
  const OPTIONS_MAX = 25; // options of a select listed whole; of a longer one,
  const OPTIONS_HEAD = 10; // the first ones,
  const OPTIONS_TAIL = 3; // the last ones and the chosen ones are listed
  const CELL_SECTION = 'h1,h2,h3,h4,h5,h6,[role=heading]'; // a cell holding one of these follows its row
  const REPEAT_KEEP = 8; // items of a list or rows of a table shown first
  const TEXT_NODE_MAX = 20000; // characters read of one text node
  // The walk's bound. A page of ordinary size (at most WALK_WHOLE
  // elements) is read whole whatever the clock says, only more slowly on
  // a busy machine (a throttled or starved renderer takes seconds over a
  // page it reads in milliseconds when idle). WALK_MS bounds the walk of a
  // page built too large to read, which is then partial: size, not the
  // machine's speed, decides what is cut. An idle machine reads an
  // ordinary page well within WALK_MS, so there this changes nothing.
  const WALK_WHOLE = 10000; // elements of a page read whole
  const WALK_FLOOR = document.getElementsByTagName('*').length <= WALK_WHOLE ? Infinity : 0; // nodes read before the time budget counts
  const WALK_MS = 1000; // time budget of the walk of a page too large to read whole
  const PICTURE_MIN = 32; // the least width and height of a picture without a name that is listed
  const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

  const active = deepActive(); // the focused element
  const rootCx = { text: true, hidden: false, inAction: false, cursor: 'auto', listDepth: 0 };
  let partial = false, ticks = 0, T1 = 0; // the walk ran out of its time; nodes walked; when it started

  function walk(n, depth, cx) {
    if (partial) return;
    if (++ticks > WALK_FLOOR && (ticks & 63) === 0 && performance.now() - T1 > WALK_MS) { partial = true; return; }
    if (n.nodeType === 3) {
      if (cx.text && !cx.hidden) {
        const d = n.data;
        addText(depth, d.length <= TEXT_NODE_MAX ? d
          : d.slice(0, TEXT_NODE_MAX) + ' … (' + (d.length - TEXT_NODE_MAX) + ' more characters of this text not shown)');
      }
      return;
    }
    if (n.nodeType === 11) { walkKids(n, depth, cx); return; }
    if (n.nodeType !== 1) return;
    try {
      element(n, depth, cx);
    } catch (e) {
      // An element the walker cannot handle is left out, not the page.
    }
  }

  function walkKids(n, depth, cx) {
    if (n.nodeType === 1) {
      if (n.shadowRoot) n = n.shadowRoot;
      else if (n.localName === 'slot') {
        for (const c of n.assignedNodes({ flatten: true })) walk(c, depth, cx);
        return;
      }
    }
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c, depth, cx);
  }

  // shownDialog reports whether el is a dialog (role dialog or
  // alertdialog, a <dialog>, a modal by its class) that has a box.
  function shownDialog(el, r) {
    const role = attr(el, 'role');
    const dialog = role === 'dialog' || role === 'alertdialog' || el.localName === 'dialog' || /(^|\s)modal(\s|$)/.test(el.className || '');
    return dialog && r.width > 0 && r.height > 0;
  }

  function element(el, depth, cx) {
    const tag = el.localName;
    if (tag === 'canvas') { canvas(el, depth, cx); return; }
    if (SKIP.has(tag)) return;
    if (tag === 'input' && el.type === 'hidden') return;
    const style = cs(el);
    if (style.display === 'none') return;
    if (cx.text && attr(el, 'aria-hidden') === 'true') {
      // Hidden from assistive technology, yet shown: its controls still
      // work, its text is decoration (an icon's glyph, a duplicate for the
      // eye), unless it is a whole region of the page (the page behind a
      // modal), which a person still reads.
      // A dialog that shows keeps its words whatever its ARIA says (a
      // consent modal marked hidden while it is on screen).
      const r = el.getBoundingClientRect();
      if ((r.width < 300 || r.height < 300) && !shownDialog(el, r)) cx = { ...cx, text: false };
    }
    const hidden = style.visibility !== 'visible';
    if (style.display === 'contents') {
      walkKids(el, depth, { ...cx, hidden });
      return;
    }
    if (style.contentVisibility === 'hidden') return; // its content is not rendered
    out.curEl = el;
    if (style.overflowX !== 'visible' && style.overflowY !== 'visible') {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) {
        // A clipped box (a collapsed menu, a visually hidden skip link):
        // only its controls.
        walkKids(el, depth, { ...cx, text: false });
        return;
      }
    }
    const inline = isInline(style.display);
    if (!inline) flush();
    const kcx = cx.hidden === hidden && cx.cursor === style.cursor ? cx : { ...cx, hidden, cursor: style.cursor };

    if (tag === 'br' || tag === 'hr') { flush(); return; }
    if (tag === 'iframe' || tag === 'frame') {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.height > 0 && !hidden) frame(el, depth, cx, r);
      return;
    }
    if (tag === 'details' && !el.open) {
      // Only the summary of a closed details is shown.
      eachKid(el, (c) => {
        if (c.nodeType === 1 && c.localName === 'summary') { walk(c, depth, kcx); return true; }
        return false;
      });
      flush();
      return;
    }
    if (tag === 'table' && cx.text && !isLayoutTable(el)) {
      table(el, depth, cx);
      return;
    }

    const role = classify(el, tag, style, cx);
    // A drawing: also when the SVG or an element around it is the target
    // ("click the circle's centre").
    if (tag === 'svg' && !hidden && (role || cx.inAction === 'clickable' || (cx.text && !cx.inAction)) &&
      svgScene(el, depth, kcx, role)) return;
    if (cx.scene && cx.scene.has(el)) return; // a shape listed in its scene
    if (role && !hidden && hasArea(el)) {
      actionable(el, role, tag, depth, kcx);
      return;
    }
    if (style.transform !== 'none' && !hidden && cx.text && face(el, style, depth, kcx, walkKids)) return;

    const explicit = attr(el, 'role');
    if (HEADINGS.has(tag) || explicit === 'heading') {
      if (cx.text) heading(el, tag, depth, kcx);
      else walkKids(el, depth, kcx);
      return;
    }
    if ((tag === 'dialog' && el.open) || explicit === 'dialog' || explicit === 'alertdialog') {
      flush();
      const name = cut(accName(el, 'dialog', tag), NAME_MAX);
      push(depth, name ? 'dialog ' + q(name) : 'dialog', 's');
      out.inDialog++;
      walkKids(el, depth + 1, kcx);
      flush();
      out.inDialog--;
      return;
    }
    if (tag === 'img' || tag === 'svg' || explicit === 'img') {
      if (cx.text && !hidden) {
        let name = accName(el, 'img', tag);
        if (!name && tag === 'svg') {
          const t = el.querySelector('title');
          name = t ? clean(t.textContent) : '';
        }
        if (name) {
          flush();
          push(depth, 'img ' + q(cut(name, NAME_MAX)), 't');
        } else if (tag === 'img' && !cx.inAction && picture(el)) {
          flush();
          push(depth, 'img ""' + boxOf(el) + PICTURE_HINT, 't');
        }
      }
      if (tag === 'svg') {
        // Links and shapes with listeners drawn in SVG are still targets.
        if (svgTargets(el)) walkKids(el, depth, { ...kcx, text: false });
      } else if (tag !== 'img') {
        walkKids(el, depth, kcx);
      }
      return;
    }
    if (tag === 'label' && el.control && el.control.checkVisibility()) {
      // The control carries the label's text as its name.
      walkKids(el, depth, { ...kcx, text: false });
      return;
    }
    if (tag === 'ul' || tag === 'ol' || tag === 'menu') {
      list(el, depth + (cx.listDepth > 0 ? 1 : 0), { ...kcx, listDepth: cx.listDepth + 1 });
      return;
    }
    if (tag === 'li' && cx.text) {
      flush();
      out.bullet = true;
      walkKids(el, depth, kcx);
      flush();
      out.bullet = false;
      return;
    }
    if (!hidden && !cx.inAction && cx.text && el.childElementCount === 0 && style.backgroundColor !== 'rgba(0, 0, 0, 0)' && tile(el, style, depth)) return;
    if (!hidden && !cx.inAction && cx.text && el.childElementCount > 1 && boxFigure(el, depth)) return;
    // A box fixed over the page (a consent banner, a chat prompt) is seen
    // first, as a dialog is.
    const over = style.position === 'fixed';
    if (over) out.inDialog++;
    walkKids(el, depth, kcx);
    if (!inline || over) flush();
    if (over) out.inDialog--;
  }

  // picture reports whether el, an img without a name and not inside a
  // target (whose line names it, an icon in a named button), is a content
  // picture the model should know of (a puzzle's example): not marked as
  // decoration (alt="", role none or presentation), not a spacer or an
  // icon (under PICTURE_MIN a side), not broken.
  function picture(el) {
    if (el.hasAttribute('alt') || /^(none|presentation)$/.test(attr(el, 'role') || '')) return false;
    if (el.complete && !el.naturalWidth) return false;
    const r = el.getBoundingClientRect();
    return r.width >= PICTURE_MIN && r.height >= PICTURE_MIN;
  }

  // list walks a list; items past the first few are a repeated structure
  // that a tight budget collapses.
  function list(el, depth, cx) {
    const saveRep = out.rep, saveItem = out.item;
    let g = -1, i = 0;
    for (const c of kids(el)) {
      if (c.nodeType === 1 && c.localName === 'li') {
        if (i++ === REPEAT_KEEP && saveRep < 0) {
          g = out.groups.length;
          out.groups.push({ unit: 'list items', of: '' });
        }
        if (g >= 0) { out.rep = g; out.item = out.items++; }
      }
      walk(c, depth, cx);
    }
    flush();
    out.rep = saveRep;
    out.item = saveItem;
  }

  function actionable(el, role, tag, depth, kcx) {
    flush();
    let name = cut(accName(el, role, tag), NAME_LONG);
    // Content too long for a name follows it, in full; the name is its start.
    const whole = said(el, role);
    if (!whole && name.length > NAME_MAX && NAME_FROM_CONTENT.has(role)) name = cut(name, NAME_MAX);
    let box = '';
    if (!name) {
      name = nameless(el, tag, role);
      box = boxOf(el);
    } else if (role === 'slider' || role === 'droptarget' || dragSource(el)) {
      box = boxOf(el);
    }
    const ref = ' [ref=' + refFor(el) + ']';
    const post = (st) => (st.length ? ' ' + st.join(' ') : '') + box + ref;
    const st = states(el, role, tag, active, VALUE_LONG);
    push(depth, role + ' ' + q(name) + post(st), 'a');
    const l = out.L[out.L.length - 1];
    const stMid = st.some((x) => x.length > VALUE_MAX) ? states(el, role, tag, active, VALUE_MAX) : st;
    // Over the budget, long names and values are cut (mid), far from the
    // viewport shorter still (short).
    if (name.length > NAME_MAX || stMid !== st) l.mid = role + ' ' + q(cut(name, NAME_MAX)) + post(stMid);
    if (name.length > SHORT_NAME) l.short = role + ' ' + q(cut(name, SHORT_NAME)) + post(stMid);
    if (tag === 'select') {
      options(el, depth + 1);
      return;
    }
    if (tag === 'input' || tag === 'textarea' || (role === 'textbox' && el.isContentEditable)) return;
    walkKids(el, depth + 1, { ...kcx, inAction: role, text: kcx.text && !whole });
    flush();
  }

  function heading(el, tag, depth, kcx) {
    flush();
    const name = accName(el, 'heading', tag);
    const level = tag[0] === 'h' && tag.length === 2 ? tag[1] : (attr(el, 'aria-level') || '2');
    if (name) push(depth, 'heading ' + q(cut(name, NAME_MAX)) + ' [level=' + level + ']', out.rep >= 0 ? 't' : 'h');
    walkKids(el, depth + 1, { ...kcx, text: name.length > NAME_MAX });
    flush();
  }

  // options writes a select's options: all of them when they are few (at
  // most OPTIONS_MAX); else the first OPTIONS_HEAD, the last OPTIONS_TAIL
  // and the chosen ones, each run of the others as one line with its
  // first and last label, the first such line saying how to read them all
  // (the options tool).
  function options(sel, depth) {
    const opts = Array.from(sel.options).filter((o) => !o.hidden && cs(o).display !== 'none');
    const line = (o) => push(depth, 'option ' + q(cut(clean(o.label), NAME_MAX)) + (o.selected ? ' selected' : '') +
      (o.disabled ? ' disabled' : ''), 's');
    const few = opts.length <= OPTIONS_MAX;
    let run = [], told = false;
    const fold = () => {
      if (run.length > 2) {
        const label = (o) => q(cut(clean(o.label), SHORT_NAME));
        let s = '… ' + run.length + ' more options, ' + label(run[0]) + ' to ' + label(run[run.length - 1]);
        if (!told) s += ': select takes any of them; options ref=' + refFor(sel) + ' lists them all';
        told = true;
        push(depth, s, 's');
      } else {
        run.forEach(line);
      }
      run = [];
    };
    opts.forEach((o, i) => {
      if (few || i < OPTIONS_HEAD || i >= opts.length - OPTIONS_TAIL || o.selected) {
        fold();
        line(o);
      } else {
        run.push(o);
      }
    });
    fold();
  }

  function isLayoutTable(el) {
    const role = attr(el, 'role');
    if (role === 'presentation' || role === 'none' || el.querySelector('table') !== null) return true;
    // A single column is a layout, not data.
    const rows = el.rows;
    for (let i = 0; i < rows.length && i < 6; i++) if (rows[i].cells.length > 1) return false;
    return true;
  }

  function table(el, depth, cx) {
    flush();
    let d = depth;
    const cap = el.caption ? textOf(el.caption, null) : '';
    if (cap) {
      push(depth, 'table ' + q(cut(cap, NAME_MAX)), 's');
      d++;
    }
    // Controls in the caption stand under it.
    if (el.caption) walkKids(el.caption, d, { ...cx, text: false });
    const saveRep = out.rep, saveItem = out.item;
    let g = -1, i = 0;
    for (const row of el.rows) {
      if (!row.checkVisibility()) continue;
      out.curEl = row;
      if (i++ === REPEAT_KEEP && saveRep < 0) {
        g = out.groups.length;
        out.groups.push({ unit: 'rows', of: cap ? 'table ' + q(cut(cap, NAME_MAX)) : 'the table' });
      }
      if (g >= 0) { out.rep = g; out.item = out.items++; }
      const cells = Array.from(row.cells).filter((c) => c.checkVisibility());
      const texts = cells.map((c) => textOf(c, null));
      // A long cell (a paragraph, a teaser) follows the row, in full; so
      // does one that holds a section of its own (a heading), whose text a
      // label of the section would otherwise stand for.
      const long = texts.map((t, j) => t.length > CELL_MAX || cells[j].querySelector(CELL_SECTION) !== null);
      const hasText = texts.some((t, j) => t && !long[j]);
      if (hasText) push(d, '| ' + texts.map((t, j) => (long[j] ? '↓' : t)).join(' | ') + ' |', 't');
      // Controls in the row stand under it.
      for (let j = 0; j < cells.length; j++) {
        const c = cells[j];
        const ccx = { ...cx, text: long[j], cursor: cs(c).cursor };
        // A cell that is itself a target (a calendar's day).
        const role = classify(c, c.localName, cs(c), cx);
        if (role && hasArea(c)) actionable(c, role, c.localName, hasText ? d + 1 : d, { ...ccx, text: false });
        else walkKids(c, hasText ? d + 1 : d, ccx);
        flush();
      }
    }
    out.rep = saveRep;
    out.item = saveItem;
  }

  function frame(el, depth, cx, r) {
    flush();
    const name = clean(attr(el, 'title') || attr(el, 'aria-label') || attr(el, 'name'));
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { /* cross-origin */ }
    if (!doc || !doc.documentElement) {
      // Another origin's document: Go walks it in the frame's own target
      // and puts its lines under this one.
      out.xframes.push(el);
      push(depth, 'iframe ' + q(cut(name, NAME_MAX)) + '\u0001' + (out.xframes.length - 1), 'x');
      return;
    }
    push(depth, 'iframe ' + q(cut(name || clean(doc.title), NAME_MAX)), 's');
    const at = out.L.length;
    const save = out.yOff;
    const saveX = out.xOff;
    out.yOff += r.top + el.clientTop;
    out.xOff += r.left + el.clientLeft;
    walk(doc.documentElement, depth + 1, { ...rootCx, text: cx.text });
    flush();
    out.yOff = save;
    out.xOff = saveX;
    if (out.L.length === at) out.L.pop(); // an empty frame (an ad slot, a blocked page) says nothing
  }

  // walkPage walks the document, the walk's clock started at t1, and
  // reports whether it is partial (the walk ran out of its time).
  function walkPage(t1) {
    T1 = t1;
    walk(document.documentElement, 0, rootCx);
    flush();
    if (partial) {
      push(0, '… the page is too large to read whole: the rest of it, from here on, was not read within ' +
        (WALK_MS / 1000) + ' s (this snapshot is partial; extract reads the text)', 's');
    }
    return partial;
  }

  return {walkKids, walkPage};
})

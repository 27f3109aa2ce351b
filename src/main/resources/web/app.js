/* Sift web app: chat over the /api, live step trace over server-sent events, tables and charts. No framework. */
(() => {
  'use strict';
  const $ = (s, el = document) => el.querySelector(s);
  const state = { token: null, datasets: [], dataset: null, session: null, busy: false };

  // ----------------------------------------------------------------------------------------------- api
  // a token handed over in the URL's fragment (#token=…) never reaches the server or its logs
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get('token')) { localStorage.setItem('sift.token', params.get('token')); history.replaceState(null, '', location.pathname); }
  state.token = localStorage.getItem('sift.token');
  // this launch's CSRF token, in the page the server served; every change sends it back
  const csrf = (document.querySelector('meta[name="sift-csrf"]') || {}).content || '';

  // a download that needs the token goes through fetch: tokens never go into URLs
  async function download(ev, path, name) {
    if (!state.token) return;
    ev.preventDefault();
    const res = await fetch(path, { headers: { 'Authorization': 'Bearer ' + state.token } });
    const a = el('a', { href: URL.createObjectURL(await res.blob()), download: name });
    document.body.append(a); a.click(); a.remove();
  }

  async function api(path, options = {}) {
    const headers = Object.assign({}, options.headers || {});
    if (state.token) headers['Authorization'] = 'Bearer ' + state.token;
    if (options.method && options.method !== 'GET') headers['X-Sift-CSRF'] = csrf;
    if (options.json !== undefined) { headers['Content-Type'] = 'application/json'; options.body = JSON.stringify(options.json); }
    const res = await fetch(path, Object.assign({}, options, { headers }));
    if (res.status === 204) return null;
    const text = await res.text();
    let body;
    try { body = text ? JSON.parse(text) : null; } catch (e) { body = { error: text }; }
    if (!res.ok) {
      if (res.status === 401) {
        const t = prompt('This Sift server needs its access token (SIFT_TOKEN):');
        if (t) { localStorage.setItem('sift.token', t); state.token = t; return api(path, options); }
      }
      throw new Error((body && body.error) || ('HTTP ' + res.status));
    }
    return body;
  }

  // ------------------------------------------------------------------------------------------ helpers
  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat()) { if (c !== null && c !== undefined) e.append(c.nodeType ? c : document.createTextNode(String(c))); }
    return e;
  }
  const esc = s => String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

  const KW = 'SELECT|FROM|WHERE|GROUP|BY|ORDER|LIMIT|OFFSET|AS|AND|OR|NOT|IN|IS|NULL|JOIN|LEFT|RIGHT|INNER|OUTER|FULL|CROSS|ON|USING|WITH|HAVING|DESC|ASC|DISTINCT|CASE|WHEN|THEN|ELSE|END|UNION|ALL|NULLS|LAST|FIRST|BETWEEN|LIKE|ILIKE|OVER|PARTITION|QUALIFY|FILTER|TRUE|FALSE|CAST|INTERVAL|EXISTS';
  const SQL_TOKEN = new RegExp("('(?:[^']|'')*')|(\"(?:[^\"]|\"\")*\")|\\b(\\d+(?:\\.\\d+)?)\\b|\\b(" + KW + ")\\b|\\b([a-z_][a-z0-9_]*)(?=\\()", 'gi');
  function highlightSql(sql) {
    let out = '', last = 0, m;
    SQL_TOKEN.lastIndex = 0;
    while ((m = SQL_TOKEN.exec(sql)) !== null) {
      out += esc(sql.slice(last, m.index));
      const cls = m[1] ? 'str' : m[2] ? 'id' : m[3] ? 'num' : m[4] ? 'kw' : 'fn';
      out += '<span class="' + cls + '">' + esc(m[0]) + '</span>';
      last = m.index + m[0].length;
    }
    return out + esc(sql.slice(last));
  }

  function codeBlock(text, sql) {
    const pre = el('pre', { class: sql ? 'sql' : '' });
    if (sql) pre.innerHTML = highlightSql(text); else pre.textContent = text;
    const copy = el('button', { class: 'copy', type: 'button', text: 'Copy', title: 'Copy to clipboard', onclick: async (ev) => {
      ev.preventDefault();
      try { await navigator.clipboard.writeText(text); copy.textContent = 'Copied'; }
      catch (e) { const r = document.createRange(); r.selectNodeContents(pre); getSelection().removeAllRanges(); getSelection().addRange(r); copy.textContent = 'Selected'; }
      setTimeout(() => { copy.textContent = 'Copy'; }, 1400);
    } });
    return el('div', { class: 'code' }, pre, copy);
  }

  // Numbers as people read them, by what the server says each column holds (evidence "formats", see Numbers.java):
  // ids and years as stored, counts grouped, amounts to two decimals, rates as percentages, others to 4 digits.
  function formatCell(v, kind) {
    if (typeof v !== 'number') return String(v);
    switch (kind) {
      case 'id': case 'year': return String(v);
      case 'count': return Number.isInteger(v) ? v.toLocaleString('en-US') : formatCell(v, 'number');
      case 'amount': return v.toLocaleString('en-US', { maximumFractionDigits: 2 });
      case 'rate': {
        const p = v * 100;
        if (p !== 0 && Math.abs(p) < 0.005) return '< 0.01%';
        return p.toLocaleString('en-US', { maximumFractionDigits: Math.abs(p) >= 10 ? 1 : 2 }) + '%';
      }
      default: {
        if (Number.isInteger(v)) return v.toLocaleString('en-US');
        const whole = Math.trunc(Math.abs(v)).toString().length;
        const digits = Math.max(4, Math.abs(v) >= 1 ? whole : 0);
        return Number(v.toPrecision(Math.min(digits, 21))).toLocaleString('en-US', { maximumFractionDigits: 20, maximumSignificantDigits: digits });
      }
    }
  }

  function toCsv(columns, rows) {
    const cell = v => { if (v === null || v === undefined) return ''; const s = String(v); return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s; };
    return [columns.map(cell).join(',')].concat(rows.map(r => r.map(cell).join(','))).join('\r\n') + '\r\n';
  }

  // --------------------------------------------------------------------------------------- datasets
  async function loadDatasets(select) {
    state.datasets = await api('/api/datasets');
    const sel = $('#dataset');
    sel.innerHTML = '';
    for (const d of state.datasets) {
      const rows = d.tables.reduce((a, t) => a + t.rows, 0);
      sel.append(el('option', { value: d.name, text: d.name + ' · ' + d.tables.length + ' tables, ' + rows.toLocaleString() + ' rows' }));
    }
    // the dataset last loaded or asked about (remembered by the server, for the CLI and the app alike), else the demo
    const last = state.datasets.find(d => d.last_used);
    const want = select || (last && last.name) || 'bank';
    state.dataset = state.datasets.some(d => d.name === want) ? want : (state.datasets[0] && state.datasets[0].name);
    sel.value = state.dataset;
    await loadChips();
  }

  async function loadChips() {
    const chips = $('#chips');
    chips.innerHTML = '';
    if (!state.dataset) return;
    const qs = await api('/api/datasets/' + encodeURIComponent(state.dataset) + '/samples');
    for (const q of qs) chips.append(el('button', { class: 'chip', type: 'button', text: q, onclick: () => ask(q) }));
  }

  // --------------------------------------------------------------------------------------- sessions
  async function loadSessions() {
    const list = await api('/api/sessions');
    const ul = $('#sessions');
    ul.innerHTML = '';
    if (!list.length) ul.append(el('li', { class: 'muted' }, 'No sessions yet'));
    for (const s of list) {
      const li = el('li', { class: s.id === state.session ? 'active' : '', 'data-id': s.id, onclick: () => openSession(s.id) },
        el('div', { class: 'title' }, el('div', { class: 'title', text: s.title || 'New chat' }),
          el('div', { class: 'meta', text: s.dataset + ' · ' + s.turn_count + (s.turn_count === 1 ? ' question' : ' questions') })),
        el('button', { class: 'del', type: 'button', title: 'Delete session', 'aria-label': 'Delete session', text: '✕', onclick: async (ev) => {
          ev.stopPropagation();
          if (!confirm('Delete this session?')) return;
          await api('/api/sessions/' + s.id, { method: 'DELETE' });
          if (state.session === s.id) newChat();
          loadSessions();
        } }));
      ul.append(li);
    }
  }

  function newChat() {
    state.session = null;
    localStorage.removeItem('sift.session');
    $('#thread').innerHTML = '';
    $('#thread').append(emptyState());
    document.querySelectorAll('#sessions li').forEach(li => li.classList.remove('active'));
    $('#question').focus();
  }

  function emptyState() {
    return el('div', { class: 'empty', id: 'empty' }, el('h1', { text: 'Ask your data a question' }),
      el('p', { class: 'muted', text: 'Sift answers from the data itself and shows every step: the SQL it ran, what it saw, and anything it could not do.' }));
  }

  // onDataset: reopen the session only when it is about that dataset (on start, the last session of another
  // dataset gives way to the one last loaded or asked about)
  async function openSession(id, onDataset) {
    const s = await api('/api/sessions/' + id);
    if (onDataset && s.dataset !== onDataset) { newChat(); return; }
    state.session = s.id;
    localStorage.setItem('sift.session', s.id);
    if (s.dataset !== state.dataset) { state.dataset = s.dataset; $('#dataset').value = s.dataset; loadChips(); }
    const thread = $('#thread');
    thread.innerHTML = '';
    if (!s.turns.length) thread.append(emptyState());
    for (const t of s.turns) {
      const view = turnView(t.asked);
      thread.append(view.root);
      if (t.kind !== 'new') view.resolved(t.kind, t.question, t.references);
      const r = t.result || {};
      (r.steps || []).forEach((st, i) => view.step({ index: i + 1, tool: st.tool, args: st.args, ok: st.ok, observation: st.summary, outcome: st.outcome }));
      view.finish();
      view.result(r);
    }
    document.querySelectorAll('#sessions li').forEach(li => li.classList.toggle('active', li.dataset.id === s.id));
    $('#sidebar').classList.remove('open');
    thread.scrollTop = thread.scrollHeight;
  }

  // ------------------------------------------------------------------------------------------- turns
  function turnView(question) {
    const trace = el('div', { class: 'steps' });
    const spinner = el('span', { class: 'spinner', 'aria-label': 'working' });
    const traceHead = el('div', { class: 'trace-head' }, spinner, el('span', { class: 'trace-title', text: 'Working' }));
    const resolved = el('div', { class: 'resolved', hidden: true });
    const body = el('div', { class: 'answer-area' });
    const card = el('div', { class: 'card' }, resolved, el('div', { class: 'trace' }, traceHead, trace), body);
    const root = el('div', { class: 'turn' }, el('div', { class: 'you' }, el('div', { class: 'bubble', text: question })), card);
    let steps = 0;
    return {
      root, card,
      resolved(kind, q, refs) {
        resolved.hidden = false;
        resolved.innerHTML = '';
        resolved.append(el('span', { class: 'badge turn-' + kind, text: kind }), ' ',
          kind === 'abandon' ? 'Earlier questions set aside. ' : 'Understood as: ', el('b', { text: q }));
        if (refs && refs.length) resolved.append(el('div', { text: refs.join(' · ') }));
      },
      step(s) {
        steps++;
        const bad = !s.ok;
        const dot = el('span', { class: 'dot' + (bad ? (s.outcome === 'ran' ? ' bad' : ' warn') : '') });
        const summary = el('summary', {}, dot, el('span', { class: 'tool', text: s.tool || '(no tool)' }),
          el('span', { class: 'thought-line', text: s.thought || (s.outcome !== 'ran' ? s.outcome : '') }),
          s.millis !== undefined ? el('span', { class: 'ms', text: s.millis + ' ms' }) : null);
        const bodyEl = el('div', { class: 'step-body' });
        if (s.thought) bodyEl.append(el('h4', { text: 'Thought' }), el('div', { text: s.thought }));
        if (s.args) {
          if (s.args.sql) bodyEl.append(el('h4', { text: 'SQL' }), codeBlock(s.args.sql, true));
          const rest = Object.assign({}, s.args); delete rest.sql;
          if (Object.keys(rest).length) bodyEl.append(el('h4', { text: 'Arguments' }), codeBlock(JSON.stringify(rest, null, 2), false));
        }
        bodyEl.append(el('h4', { text: 'Observation' }), el('pre', { class: 'obs', text: s.observation || '' }));
        trace.append(el('details', { class: 'step', 'data-tool': s.tool || '' }, summary, bodyEl));
        traceHead.querySelector('.trace-title').textContent = 'Working · ' + steps + (steps === 1 ? ' step' : ' steps');
      },
      progress(p) { // a long tool (rows sent to the model) says how far it is, shown in the trace's head
        const n = (x) => Number(x).toLocaleString();
        traceHead.querySelector('.trace-title').textContent = 'Working · ' + p.stage + ' ' + n(p.done) + (p.total > 0 ? ' of ' + n(p.total) : '');
      },
      finish() {
        spinner.remove();
        traceHead.querySelector('.trace-title').textContent = steps ? (steps + (steps === 1 ? ' step' : ' steps')) : 'No tool steps';
      },
      clarify(ev, runId) {
        const box = el('div', { class: 'clarify' }, el('div', {}, el('b', { text: ev.question })),
          el('div', { class: 'muted', text: 'The run is paused until you choose (default: ' + ev.default_option + ').' }));
        const opts = el('div', { class: 'options' });
        for (const o of ev.options) {
          opts.append(el('button', { type: 'button', text: o, class: o === ev.default_option ? 'primary' : '', onclick: async () => {
            opts.querySelectorAll('button').forEach(b => { b.disabled = true; });
            try { await api('/api/runs/' + runId + '/reply', { method: 'POST', json: { answer: o } }); }
            catch (e) { box.append(el('div', { class: 'error', text: e.message })); }
          } }));
        }
        box.append(opts);
        body.append(box);
        return box;
      },
      result(r, runId) { renderResult(body, r, runId); },
      error(msg) { body.append(el('div', { class: 'error', text: msg })); }
    };
  }

  function renderResult(area, r, runId) {
    if (!r || r.answer === undefined) { if (r && r.error) area.append(el('div', { class: 'error', text: r.error })); return; }
    area.append(el('div', { class: 'answer-head' },
      el('span', { class: 'badge ' + r.status, title: 'groundedness status', text: r.status }),
      r.kind !== 'answer' ? el('span', { class: 'badge kind-' + r.kind, text: r.kind }) : null,
      el('span', { class: 'muted', text: r.planner + ' · ' + r.millis + ' ms' })));
    if (r.status === 'ungrounded') {
      const nums = (r.grounding && r.grounding.unsupported) || [];
      area.append(el('div', { class: 'ungrounded-warning', role: 'alert',
        text: 'Not grounded: ' + (nums.length ? nums.join(', ') + (nums.length === 1 ? ' is' : ' are') : 'some claims are')
          + ' in no query result. Do not rely on ' + (nums.length === 1 ? 'this number.' : 'these numbers.') }));
    }
    if (r.judge) {
      area.append(el('div', { class: 'judge-verdict' + (r.judge.verdict ? ' ' + r.judge.verdict : ' failed'),
        text: r.judge.verdict ? 'Judge: ' + r.judge.verdict + (r.judge.reasons ? ' — ' + r.judge.reasons : '')
          : 'Judge failed: ' + r.judge.error }));
    }
    area.append(el('div', { class: 'answer', text: r.answer }));
    if (runId && r.kind === 'answer' && (r.evidence || []).some(e => e.sql)) area.append(saveButton(runId));
    if (r.notes && r.notes.length) area.append(el('ul', { class: 'notes' }, r.notes.map(n => el('li', { text: n }))));
    for (const c of (r.charts || [])) {
      const box = el('div', { class: 'chart' + (c.suggested ? ' suggested' : '') });
      area.append(box);
      if (window.vegaEmbed) vegaEmbed(box, c.spec, { actions: { export: true, source: false, compiled: false, editor: false }, renderer: 'svg', ast: true, expr: vega.expressionInterpreter })
        .catch(e => box.append(el('div', { class: 'error', text: 'Chart could not be drawn: ' + e.message })));
    }
    // the result the answer rests on (the last query: predictions and their drivers, not the training frame) first
    (r.evidence || []).slice().reverse().forEach(e => area.append(resultTable(e, r.session_id || state.session)));
  }

  // marks the answer right: its question and SQL go into the dataset's knowledge file as a verified example
  function saveButton(runId) {
    const status = el('span', { class: 'muted save-status' });
    const button = el('button', { type: 'button', class: 'ghost save-answer', text: 'This answer is right — save it', onclick: async () => {
      button.disabled = true;
      try {
        const s = await api('/api/runs/' + runId + '/save', { method: 'POST', json: {} });
        status.textContent = 'Saved as a verified example in ' + s.file;
      } catch (e) { button.disabled = false; status.textContent = ''; status.append(el('span', { class: 'error', text: e.message })); }
    } });
    return el('div', { class: 'save-row' }, button, ' ', status);
  }

  // ------------------------------------------------------------------------------- knowledge graph
  async function openKnowledge() {
    const dlg = $('#kg');
    const body = $('#kg-body');
    body.innerHTML = '';
    $('#kg-status').textContent = '';
    dlg.showModal();
    const base = '/api/datasets/' + encodeURIComponent(state.dataset) + '/kg';
    let g;
    try { g = await api(base); } catch (e) { body.append(el('div', { class: 'error', text: e.message })); return; }
    const change = async (path, json) => {
      try {
        const s = await api(base + path, { method: 'POST', json });
        await openKnowledge();
        $('#kg-status').textContent = 'Saved to ' + s.file + ' (' + s.section + ').';
        loadChips().catch(() => {});
      } catch (e) { $('#kg-status').textContent = ''; $('#kg-status').append(el('span', { class: 'error', text: e.message })); }
    };
    body.append(el('p', { class: 'muted', text: 'Knowledge file: ' + g.file + (g.file_exists ? '' : ' (written on the first change)') }));
    body.append(el('h3', { text: 'Tables' }), el('ul', {}, g.tables.map(t => el('li', {}, el('b', { text: t.name }),
      ' · ' + t.rows.toLocaleString() + ' rows' + (t.synonyms.length ? ' · also: ' + t.synonyms.join(', ') : '') + ' — '
      + t.columns.map(c => c.name + (c.key ? ' (key)' : '')).join(', ')))));
    body.append(el('h3', { text: 'Joins' }), el('ul', { class: 'kg-joins' }, g.joins.map(j => el('li', {},
      j.from + ' → ' + j.to + ' ', el('span', { class: 'badge ' + (j.approved ? 'rule_based' : 'kind-clarification'),
        text: j.approved ? (j.curated ? 'approved in your file' : 'approved (measured)') : 'candidate' }),
      j.cardinality ? ' ' + j.cardinality : '', j.coverage < 1 ? ' · ' + (100 * j.coverage).toFixed(1) + ' % found' : '',
      j.approved && j.curated ? null : el('button', { type: 'button', class: 'ghost approve-join', text: j.approved ? 'Keep in my file' : 'Approve',
        onclick: () => change('/joins', { from: j.from, to: j.to }) })))));
    body.append(el('h3', { text: 'Metrics' }), el('ul', {}, g.metrics.map(m => el('li', {}, el('b', { text: m.name }), ' = ' + m.expression
      + ' (per ' + m.grain + ')' + (m.description ? ': ' + m.description : '')))));
    body.append(el('h3', { text: 'Synonyms and concepts' }), el('ul', {}, g.concepts.map(c => el('li', {}, el('b', { text: c.name }),
      ' → ' + c.target + (c.synonyms.length ? ' (' + c.synonyms.join(', ') + ')' : '')))));
    body.append(el('h3', { text: 'Saved answers' }), el('ul', {}, g.examples.map(x => el('li', {}, el('b', { text: x.question }), ' ',
      el('code', { text: x.sql })))));
    const targets = g.tables.flatMap(t => [t.name].concat(t.columns.map(c => t.name + '.' + c.name)));
    const phrase = el('input', { id: 'kg-phrase', placeholder: 'buyers' });
    const target = el('select', { id: 'kg-target' }, targets.map(t => el('option', { value: t, text: t })));
    body.append(el('h3', { text: 'Add a synonym' }), el('form', { class: 'kg-form', onsubmit: ev => { ev.preventDefault();
      change('/synonyms', target.value.includes('.') ? { phrase: phrase.value, column: target.value } : { phrase: phrase.value, table: target.value }); } },
      phrase, ' means ', target, el('button', { type: 'submit', class: 'primary', id: 'kg-add-synonym', text: 'Add' })));
    const f = { name: el('input', { id: 'kg-metric-name', placeholder: 'revenue' }),
      expression: el('input', { id: 'kg-metric-expression', placeholder: 'sum(orders.quantity * products.unit_price)' }),
      grain: el('select', { id: 'kg-metric-grain' }, g.tables.map(t => el('option', { value: t.name, text: t.name }))),
      tables: el('input', { id: 'kg-metric-tables', placeholder: 'orders, products' }) };
    body.append(el('h3', { text: 'Define a metric' }), el('form', { class: 'kg-form', onsubmit: ev => { ev.preventDefault();
      change('/metrics', { name: f.name.value, expression: f.expression.value, grain: f.grain.value,
        tables: f.tables.value.split(',').map(x => x.trim()).filter(x => x) }); } },
      f.name, ' = ', f.expression, ' per row of ', f.grain, ' over ', f.tables,
      el('button', { type: 'submit', class: 'primary', id: 'kg-add-metric', text: 'Define' })));
  }

  function resultTable(e, sessionId) {
    const wrap = el('div', { class: 'table-wrap' });
    const info = el('span', {});
    const pager = el('span', { class: 'pager' });
    const head = el('div', { class: 'result-head' }, info, el('span', { class: 'spacer' }), pager);
    const box = el('div', { class: 'result' }, head, wrap);
    const pageSize = 10;
    const formats = e.formats || [];
    let offset = 0;
    const draw = (columns, rows, total) => {
      const table = el('table', {}, el('thead', {}, el('tr', {}, columns.map(c => el('th', { text: c })))),
        el('tbody', {}, rows.map(row => el('tr', {}, row.map((v, i) => v === null ? el('td', {}, el('span', { class: 'null', text: 'NULL' }))
          : el('td', { class: typeof v === 'number' ? 'num' : '', 'data-kind': formats[i] || null, text: formatCell(v, formats[i]) }))))));
      wrap.innerHTML = '';
      wrap.append(table);
      info.textContent = total.toLocaleString() + (total === 1 ? ' row' : ' rows') + (e.frame ? ' · frame ' + e.frame : '');
      pager.innerHTML = '';
      if (total > pageSize) {
        pager.append(el('button', { type: 'button', text: '‹', disabled: offset === 0, onclick: () => go(offset - pageSize) }),
          el('span', { text: (offset + 1) + '–' + Math.min(offset + pageSize, total) }),
          el('button', { type: 'button', text: '›', disabled: offset + pageSize >= total, onclick: () => go(offset + pageSize) }));
      }
      if (e.frame && sessionId) {
        const csvPath = '/api/sessions/' + sessionId + '/frames/' + encodeURIComponent(e.frame) + '/csv';
        pager.append(el('a', { class: 'button', href: csvPath, download: e.frame + '.csv', text: 'Download CSV', onclick: ev => download(ev, csvPath, e.frame + '.csv') }));
      } else {
        pager.append(el('button', { type: 'button', text: 'Download CSV', onclick: () => {
          const blob = new Blob([toCsv(e.columns, e.rows)], { type: 'text/csv' });
          const a = el('a', { href: URL.createObjectURL(blob), download: 'result.csv' });
          document.body.append(a); a.click(); a.remove();
        } }));
      }
    };
    const go = async (o) => {
      offset = Math.max(0, o);
      if (e.frame && sessionId && e.row_count > e.rows.length) {
        try {
          const p = await api('/api/sessions/' + sessionId + '/frames/' + encodeURIComponent(e.frame) + '?offset=' + offset + '&limit=' + pageSize);
          draw(p.columns, p.rows, p.total);
          return;
        } catch (err) { /* the frame is gone (session closed): fall back to the rows the answer kept */ }
      }
      draw(e.columns, e.rows.slice(offset, offset + pageSize), e.rows.length);
    };
    go(0);
    return box;
  }

  // --------------------------------------------------------------------------------------------- ask
  async function ask(question) {
    question = (question || '').trim();
    if (!question || state.busy) return;
    state.busy = true;
    $('#ask').disabled = true;
    const thread = $('#thread');
    const empty = $('#empty'); if (empty) empty.remove();
    const view = turnView(question);
    thread.append(view.root);
    thread.scrollTop = thread.scrollHeight;
    $('#question').value = '';
    autosize();
    try {
      if (!state.session) {
        const s = await api('/api/sessions', { method: 'POST', json: { dataset: state.dataset } });
        state.session = s.id;
        localStorage.setItem('sift.session', s.id);
      }
      const run = await api('/api/sessions/' + state.session + '/ask', { method: 'POST', json: { question } });
      await stream(run.run_id, view, run.events_url);
    } catch (e) {
      view.finish();
      view.error(e.message);
    } finally {
      state.busy = false;
      $('#ask').disabled = false;
      loadSessions().catch(() => {});
    }
  }

  function stream(runId, view, url) {
    return new Promise((resolve) => {
      const es = new EventSource(url); // signed by the server for this run: EventSource cannot send the token
      let clarifyBox = null, finished = false;
      const on = (type, fn) => es.addEventListener(type, ev => { fn(JSON.parse(ev.data)); $('#thread').scrollTop = $('#thread').scrollHeight; });
      on('turn', e => { if (e.kind !== 'new') view.resolved(e.kind, e.question, e.references); });
      on('step', e => view.step(e));
      on('progress', e => view.progress(e));
      on('clarify', e => { clarifyBox = view.clarify(e, runId); });
      on('clarified', e => { if (clarifyBox) { clarifyBox.querySelector('.options').replaceWith(el('div', { class: 'muted', text: (e.answered_by === 'person' ? 'You chose: ' : 'Default taken: ') + e.answer })); } });
      on('result', e => { view.finish(); view.result(e.result, runId); });
      on('error', e => { if (e && e.error) { view.finish(); view.error(e.error); } });
      on('done', () => { finished = true; es.close(); view.finish(); resolve(); });
      es.onerror = () => {
        if (finished) return;
        if (es.readyState === EventSource.CLOSED) { view.finish(); view.error('The connection to the server was lost.'); resolve(); }
      };
    });
  }

  // ------------------------------------------------------------------------------------------ upload
  function setupUpload() {
    const dlg = $('#upload');
    const openDialog = () => { $('#upload-status').textContent = ''; $('#upload-progress').hidden = true; $('#sidebar').classList.remove('open'); dlg.showModal(); };
    $('#upload-open').addEventListener('click', openDialog);
    $('#upload-open-side').addEventListener('click', openDialog);
    $('#upload-cancel').addEventListener('click', () => dlg.close());
    $('#upload-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const files = $('#upload-files').files;
      const name = $('#upload-name').value.trim();
      const url = $('#connect-url').value.trim();
      const replace = $('#upload-replace').checked;
      if (!name || (!files.length && !url)) return;
      if (url && !files.length) { connectUrl(name, url, replace); return; }
      const form = new FormData();
      form.append('name', name);
      if (replace) form.append('replace', 'true');
      for (const f of files) form.append('files', f, f.name);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/datasets');
      if (state.token) xhr.setRequestHeader('Authorization', 'Bearer ' + state.token);
      xhr.setRequestHeader('X-Sift-CSRF', csrf);
      const bar = $('#upload-progress');
      bar.hidden = false; bar.value = 0;
      xhr.upload.onprogress = e => { if (e.lengthComputable) { bar.value = Math.round(100 * e.loaded / e.total); $('#upload-status').textContent = 'Uploading… ' + bar.value + '%'; } };
      xhr.upload.onload = () => { $('#upload-status').textContent = 'Building the dataset…'; bar.removeAttribute('value'); };
      xhr.onload = async () => {
        let body = {};
        try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status === 201) {
          await built(body.name);
        } else {
          bar.hidden = true;
          $('#upload-status').innerHTML = '<span class="error">' + esc(body.error || ('Upload failed (HTTP ' + xhr.status + ')')) + '</span>';
        }
      };
      xhr.onerror = () => { bar.hidden = true; $('#upload-status').innerHTML = '<span class="error">The upload failed (connection).</span>'; };
      xhr.send(form);
    });
    async function built(name) {
      dlg.close();
      await loadDatasets(name);
      newChat();
    }
    async function connectUrl(name, url, replace) {
      $('#upload-status').textContent = 'Connecting and building the dataset…';
      try {
        const body = await api('/api/datasets/connect', { method: 'POST', json: { name, source: url, replace } });
        await built(body.name);
      } catch (e) {
        $('#upload-status').innerHTML = '<span class="error">' + esc(e.message) + '</span>';
      }
    }
  }

  // -------------------------------------------------------------------------------------------- init
  function autosize() {
    const t = $('#question');
    t.style.height = 'auto';
    t.style.height = Math.min(t.scrollHeight + 2, 160) + 'px';
    t.style.overflowY = t.scrollHeight > 160 ? 'auto' : 'hidden';
  }

  async function init() {
    $('#ask-form').addEventListener('submit', ev => { ev.preventDefault(); ask($('#question').value); });
    $('#question').addEventListener('keydown', ev => { if (ev.key === 'Enter' && !ev.shiftKey) { ev.preventDefault(); ask($('#question').value); } });
    $('#question').addEventListener('input', autosize);
    $('#new-session').addEventListener('click', newChat);
    $('#menu').addEventListener('click', () => $('#sidebar').classList.toggle('open'));
    $('#dataset').addEventListener('change', async ev => {
      state.dataset = ev.target.value;
      await loadChips();
      newChat();
    });
    setupUpload();
    $('#kg-open').addEventListener('click', () => openKnowledge());
    $('#kg-open-side').addEventListener('click', () => openKnowledge());
    $('#kg-close').addEventListener('click', () => $('#kg').close());
    autosize();
    try {
      await loadDatasets();
      await loadSessions();
      const last = localStorage.getItem('sift.session');
      if (last) await openSession(last, state.dataset).catch(() => newChat());
    } catch (e) {
      $('#thread').append(el('div', { class: 'error', text: 'Sift could not load: ' + e.message }));
    }
  }
  document.addEventListener('DOMContentLoaded', init);
})();

// Boards drawn the way the games look, as SVG. Every cell is a <g class="cell"> with data-row,
// data-col (0-based) and data-value: the character the service uses for that cell in its boards
// (a digit for Sudoku; Q/. for queens; T/A/. for tents; 0/1 for Takuzu and Tango; a piece letter
// for chess), so that what is drawn can be read back from the DOM.
'use strict';

const Boards = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const CELL = 44;
  const PALETTE = ['#f4a3a3', '#f7c98b', '#f3ee8d', '#b9e3a0', '#9fd8d0', '#a9c7f0', '#c8b4ee', '#f0b3d9',
    '#d9c3a5', '#c9d1d9', '#e8a87c', '#a5e3c3', '#e2e2a0', '#b0b8f5', '#f5b0b0', '#b8e0f5'];

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Height and width of the board a spec describes.
  function shape(kind, spec) {
    if (kind === 'sudoku') {
      const n = spec.sudoku.boxSize || 3;
      return [n * n, n * n];
    }
    const body = spec.queens || spec.tents || spec.takuzu || spec.chess;
    return [body.rows, body.cols || body.rows];
  }

  // Cells named by the violations' locations ("row 3", "cell (2,5)", "region 4" ...).
  function violatedCells(kind, spec, violations, height, width) {
    const cells = new Set();
    const add = (r, c) => { if (r >= 0 && r < height && c >= 0 && c < width) cells.add(r * width + c); };
    for (const v of violations || []) {
      const where = v.location || '';
      for (const m of where.matchAll(/\((\d+),(\d+)\)/g)) add(+m[1] - 1, +m[2] - 1);
      let m;
      if ((m = where.match(/^row (\d+)/))) for (let c = 0; c < width; c++) add(+m[1] - 1, c);
      if ((m = where.match(/^column (\d+)/))) for (let r = 0; r < height; r++) add(r, +m[1] - 1);
      if ((m = where.match(/^region (\d+)/)) && spec.queens) {
        spec.queens.regions.forEach((id, i) => { if (id === +m[1]) cells.add(i); });
      }
      if ((m = where.match(/^(box|block) (\d+)/)) && kind === 'sudoku') {
        const n = spec.sudoku.boxSize || 3, b = +m[2] - 1;
        for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) add(Math.floor(b / n) * n + r, (b % n) * n + c);
      }
    }
    return cells;
  }

  function crown(g, x, y, colour) {
    const s = CELL / 44;
    const p = [[10, 32], [8, 14], [16, 22], [22, 10], [28, 22], [36, 14], [34, 32]]
      .map(([a, b]) => `${x + a * s},${y + b * s}`).join(' ');
    el('polygon', { points: p, fill: colour, stroke: '#222', 'stroke-width': 1.2 }, g);
    el('rect', { x: x + 10 * s, y: y + 33 * s, width: 24 * s, height: 4 * s, fill: colour, stroke: '#222' }, g);
  }

  function sun(g, cx, cy) {
    el('circle', { cx, cy, r: CELL * 0.28, fill: '#f6b93b', stroke: '#c77c02', 'stroke-width': 2 }, g);
  }

  // A crescent: the moon's disc with a disc of the cell's colour over its upper right.
  function moon(g, cx, cy, backdrop) {
    const r = CELL * 0.28;
    el('circle', { cx, cy, r, fill: '#4a69bd', stroke: '#1e3799', 'stroke-width': 1.5 }, g);
    el('circle', { cx: cx + r * 0.45, cy: cy - r * 0.3, r: r * 0.82, fill: backdrop }, g);
  }

  function tree(g, x, y) {
    el('rect', { x: x + CELL * 0.45, y: y + CELL * 0.62, width: CELL * 0.1, height: CELL * 0.22, fill: '#7b4f2c' }, g);
    el('polygon', {
      points: `${x + CELL / 2},${y + CELL * 0.12} ${x + CELL * 0.22},${y + CELL * 0.66} ${x + CELL * 0.78},${y + CELL * 0.66}`,
      fill: '#2f8f46', stroke: '#1d5c2c',
    }, g);
  }

  function tent(g, x, y) {
    el('polygon', {
      points: `${x + CELL / 2},${y + CELL * 0.18} ${x + CELL * 0.16},${y + CELL * 0.8} ${x + CELL * 0.84},${y + CELL * 0.8}`,
      fill: '#e67e22', stroke: '#9c4f0b', 'stroke-width': 1.5,
    }, g);
    el('polygon', {
      points: `${x + CELL / 2},${y + CELL * 0.45} ${x + CELL * 0.4},${y + CELL * 0.8} ${x + CELL * 0.6},${y + CELL * 0.8}`,
      fill: '#5a2d0c',
    }, g);
  }

  function text(g, x, y, value, attrs) {
    const t = el('text', Object.assign({ x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, attrs), g);
    t.textContent = value;
    return t;
  }

  function pieceLetter(piece) {
    if (!piece) return '?';
    if (piece.custom && piece.custom.symbol) return piece.custom.symbol;
    return { PIECE_QUEEN: 'Q', PIECE_ROOK: 'R', PIECE_BISHOP: 'B', PIECE_KNIGHT: 'N', PIECE_KING: 'K' }[piece.standard] || '?';
  }

  // What the service would print for cell i of an unsolved board (the givens).
  function givenValue(kind, spec, i) {
    switch (kind) {
      case 'sudoku': {
        const v = spec.sudoku.cells[i] || 0;
        return v ? '0123456789ABCDEFGHIJKLMNOP'[v] : '.';
      }
      case 'queens': case 'nqueens':
        if ((spec.queens.masked || [])[i]) return '#';
        return (spec.queens.givenQueens || []).includes(i) ? 'Q' : '.';
      case 'tents': return (spec.tents.trees || []).includes(i) ? 'A' : '.';
      case 'tango': case 'takuzu': {
        const v = (spec.takuzu.cells || [])[i];
        return v === 'ZERO' ? '0' : v === 'ONE' ? '1' : '.';
      }
      case 'chess': {
        const c = spec.chess;
        const k = c.cellPieces && c.cellPieces.length ? c.cellPieces[i] : 1;
        if (!k) return '#';
        return (c.placed || []).includes(i) ? pieceLetter(c.pieces[k - 1]) : '.';
      }
    }
    return '.';
  }

  function drawCell(g, kind, spec, i, value, x, y, given) {
    switch (kind) {
      case 'sudoku':
        if (value !== '.' && value !== '0') {
          text(g, x + CELL / 2, y + CELL / 2, value, {
            class: given ? 'given' : 'solved', 'font-size': CELL * 0.55,
            'font-weight': given ? 700 : 400, fill: given ? '#111' : '#2563eb',
          });
        }
        break;
      case 'queens': case 'nqueens':
        if (value === 'Q') crown(g, x, y, given ? '#444' : '#111');
        break;
      case 'tents':
        if (value === 'A') tree(g, x, y);
        if (value === 'T') tent(g, x, y);
        break;
      case 'tango':
        if (value === '0') sun(g, x + CELL / 2, y + CELL / 2);
        if (value === '1') moon(g, x + CELL / 2, y + CELL / 2, background(kind, spec, i, 0, 0));
        if (given && value !== '.') el('rect', { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: 'none', stroke: '#999', 'stroke-dasharray': '3 2' }, g);
        break;
      case 'takuzu':
        if (value === '0' || value === '1') {
          el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.3, fill: value === '1' ? '#222' : '#fff', stroke: '#222', 'stroke-width': given ? 3 : 1.5 }, g);
        }
        break;
      case 'chess':
        if (value !== '.' && value !== '#') {
          text(g, x + CELL / 2, y + CELL / 2, value, { 'font-size': CELL * 0.6, 'font-weight': 700, fill: given ? '#444' : '#111' });
        }
        break;
    }
  }

  function background(kind, spec, i, r, c) {
    if (kind === 'queens' || kind === 'nqueens') {
      const q = spec.queens;
      if ((q.masked || [])[i]) return '#555';
      if (q.regions && q.regions.length && q.regions[i] >= 0) return PALETTE[q.regions[i] % PALETTE.length];
      return (r + c) % 2 ? '#e9e4d8' : '#fbf8f0';
    }
    if (kind === 'chess') {
      const ch = spec.chess;
      if (ch.cellPieces && ch.cellPieces.length && !ch.cellPieces[i]) return '#555';
      if (ch.regions && ch.regions.length) return PALETTE[ch.regions[i] % PALETTE.length];
      return (r + c) % 2 ? '#e9e4d8' : '#fbf8f0';
    }
    if (kind === 'tents') return '#eef7e4';
    if (kind === 'tango') return '#fdfaf3';
    return '#fff';
  }

  // Sudoku box lines and region borders of queens and chess boards.
  function thickLines(svg, kind, spec, height, width, ox, oy) {
    const line = (x1, y1, x2, y2) => el('line', { x1, y1, x2, y2, stroke: '#111', 'stroke-width': 3, 'stroke-linecap': 'round' }, svg);
    let region = null;
    if (kind === 'sudoku') {
      const n = spec.sudoku.boxSize || 3;
      region = (r, c) => Math.floor(r / n) * n + Math.floor(c / n);
    } else if (kind === 'queens' && spec.queens.regions && spec.queens.regions.length) {
      region = (r, c) => spec.queens.regions[r * width + c];
    } else if (kind === 'chess' && spec.chess.regions && spec.chess.regions.length) {
      region = (r, c) => spec.chess.regions[r * width + c];
    }
    if (!region) return;
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (c + 1 < width && region(r, c) !== region(r, c + 1)) line(ox + (c + 1) * CELL, oy + r * CELL, ox + (c + 1) * CELL, oy + (r + 1) * CELL);
        if (r + 1 < height && region(r, c) !== region(r + 1, c)) line(ox + c * CELL, oy + (r + 1) * CELL, ox + (c + 1) * CELL, oy + (r + 1) * CELL);
      }
    }
  }

  // Tango's '=' and '×' between cells; with `onEdit`, empty slots between side neighbours take
  // clicks too.
  function signs(svg, spec, height, width, ox, oy, onEdit) {
    const bySlot = new Map();
    for (const s of spec.takuzu.signs || []) {
      const [a, b] = [s.a || {}, s.b || {}];
      bySlot.set(`${a.row || 0},${a.col || 0},${b.row || 0},${b.col || 0}`, s.kind);
    }
    const slot = (r1, c1, r2, c2) => {
      const kind = bySlot.get(`${r1},${c1},${r2},${c2}`) || bySlot.get(`${r2},${c2},${r1},${c1}`);
      if (!kind && !onEdit) return;
      const cx = ox + ((c1 + c2) / 2 + 0.5) * CELL, cy = oy + ((r1 + r2) / 2 + 0.5) * CELL;
      const g = el('g', { class: 'sign', 'data-sign': kind === 'EQUAL' ? '=' : kind === 'DIFFERENT' ? 'x' : '' }, svg);
      if (kind) {
        el('circle', { cx, cy, r: CELL * 0.17, fill: '#fff', stroke: '#888' }, g);
        text(g, cx, cy, kind === 'EQUAL' ? '=' : '×', { 'font-size': CELL * 0.3, 'font-weight': 700, fill: '#6d4c41' });
      } else {
        el('circle', { cx, cy, r: CELL * 0.12, fill: 'transparent' }, g);
      }
      if (onEdit) g.addEventListener('click', (e) => { e.stopPropagation(); onEdit({ sign: [r1, c1, r2, c2] }); });
    };
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (c + 1 < width) slot(r, c, r, c + 1);
        if (r + 1 < height) slot(r, c, r + 1, c);
      }
    }
  }

  // Draws `spec` into `container`; `rows` (the service's board rows) or the givens when null.
  function draw(container, kind, spec, rows, violations, onEdit) {
    container.textContent = '';
    if (!spec) return;
    const [height, width] = shape(kind, spec);
    const counts = kind === 'tents';
    const ox = 4, oy = counts ? CELL * 0.7 + 4 : 4;
    const svg = el('svg', {
      viewBox: `0 0 ${width * CELL + 8 + (counts ? CELL * 0.7 : 0)} ${height * CELL + oy + 4}`,
      'data-kind': kind, 'data-height': height, 'data-width': width,
    }, container);
    const bad = violatedCells(kind, spec, violations, height, width);
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const i = r * width + c;
        const given = givenValue(kind, spec, i);
        const value = rows && rows[r] ? rows[r][c] : given;
        const x = ox + c * CELL, y = oy + r * CELL;
        const g = el('g', {
          class: 'cell' + (bad.has(i) ? ' violated' : ''), 'data-row': r, 'data-col': c, 'data-value': value,
        }, svg);
        el('rect', { class: 'bg', x, y, width: CELL, height: CELL, fill: background(kind, spec, i, r, c), stroke: '#9ca3af', 'stroke-width': 1 }, g);
        drawCell(g, kind, spec, i, value, x, y, given !== '.' && given === value);
        if (onEdit) g.addEventListener('click', (e) => onEdit({ row: r, col: c, shift: e.shiftKey }));
      }
    }
    thickLines(svg, kind, spec, height, width, ox, oy);
    el('rect', { x: ox, y: oy, width: width * CELL, height: height * CELL, fill: 'none', stroke: '#111', 'stroke-width': 3 }, svg);
    for (const i of bad) {
      const r = Math.floor(i / width), c = i % width;
      el('rect', { class: 'violation', x: ox + c * CELL + 2, y: oy + r * CELL + 2, width: CELL - 4, height: CELL - 4, fill: 'rgba(220,38,38,.18)', stroke: '#dc2626', 'stroke-width': 2.5 }, svg);
    }
    if (kind === 'tango' || kind === 'takuzu') signs(svg, spec, height, width, ox, oy, onEdit);
    if (counts) {
      const t = spec.tents;
      (t.colCounts || []).forEach((n, c) => text(svg, ox + (c + 0.5) * CELL, oy - CELL * 0.35, n, { 'font-size': CELL * 0.4, class: 'count' }));
      (t.rowCounts || []).forEach((n, r) => text(svg, ox + width * CELL + CELL * 0.35, oy + (r + 0.5) * CELL, n, { 'font-size': CELL * 0.4, class: 'count' }));
    }
  }

  // The board's rows as drawn (data-value of every cell).
  function readRows(container) {
    const rows = [];
    for (const g of container.querySelectorAll('g.cell')) {
      const r = +g.dataset.row;
      rows[r] = (rows[r] || '') + g.dataset.value;
    }
    return rows;
  }

  return { draw, readRows, shape, PALETTE };
})();

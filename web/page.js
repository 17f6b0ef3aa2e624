// The web page's drawing layer and controls.
//
// The simulation is web/page.py, which runs the game's own Python (game/) in Pyodide: nothing
// here decides where a body goes. This file loads Python, reads the keyboard into the game's
// held keys, asks Python to step every resolver's world a tick at a time, and draws what Python
// says happened: the level's tiles, each resolver's player (yours solid, the others as ghosts
// in their colours), where each ghost parted from you, and with the debug view the cells each
// resolver probed and its push-out. Every number shown comes from Python.

import { loadPyodide } from "./pyodide/pyodide.mjs";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

// The game's keys (game/view/keymap.py, HELD_KEYS), as the browser names them.
const HELD_KEYS = {
  left: ["ArrowLeft", "KeyA"], right: ["ArrowRight", "KeyD"], up: ["ArrowUp", "KeyW"],
  down: ["ArrowDown", "KeyS"], jump: ["Space", "KeyZ"], throw: ["KeyX", "KeyF"],
};
const SPEEDS = [1, 1 / 2, 1 / 4, 1 / 8];  // T cycles through them, as in the game
// How the game draws (game/view/world_view.py, debug.py, living.py, sprites.py).
const GHOST_ALPHA = 120 / 255;
const OPEN_DOOR_ALPHA = 70 / 255;
const GOAL_GLOW = [255, 240, 120];
const DEBUG_TILES = { 1: "rgba(255,80,80,0.43)", 2: "rgba(80,200,255,0.78)", 3: "rgba(255,170,60,0.86)" };
const PROBED = "rgba(255,255,0,0.27)";
const HITBOX_STANDING = "rgb(60,255,90)", HITBOX_AIR = "rgb(255,255,255)";
const CONTACT_EDGE = "rgb(255,40,200)", PUSH_OUT = "rgb(255,255,255)";
const FRAME = 16;  // px, the frames of player.png, walker.png and items.png
const ANIMATIONS = { idle: [0, 4, 4.0], run: [1, 6, 12.0], jump: [2, 2, 0.0] };  // row, frames, fps
const ITEMS = ["coin0", "coin1", "coin2", "coin3", "checkpoint_off", "checkpoint_on", "lever_off",
  "lever_on", "plate_up", "plate_down"];
const BACKDROPS = { day: ["sky.png", "hills.png"], dawn: ["dawn_sky.png", "dawn_hills.png"],
  dusk: ["dusk_sky.png", "dusk_hills.png"], night: ["night_sky.png", "night_hills.png"],
  moon: ["moon_sky.png", "moon_hills.png"] };
const PLATFORM = { solid: ["rgb(96,104,120)", "rgb(150,160,178)", "rgb(44,48,60)"],
  oneway: ["rgb(150,104,60)", "rgb(206,160,98)", "rgb(74,48,26)"] };
const SPEAR_LENGTH = 16;
const CANVAS_W = 1152, CANVAS_H = 648;

const px = (v) => Math.floor(v + 0.5);  // the game's rounding (game/sim/camera.py)
const rgb = (c, a = 1) => `rgba(${c[0]},${c[1]},${c[2]},${a})`;

// --- what is going on -------------------------------------------------------------------------
let py = null, web = null;          // Pyodide, and web/page.py
let manifest = null;                // the maps this page offers (tools/build_web.py)
let resolvers = [];                 // [{name, colour, summary, article...}], --list-resolvers order
let keyBits = {};                   // held key name -> its bit (web/page.py's KEY_BITS)
let session = null, level = null, state = null, lab = null;
let you = null;                     // the resolver you play
let paused = false, slow = 0, ghosts = true, debug = false;
let replay = null;                  // {text, ticks, trace}: a replay (a link's, a scenario's) while it runs
let replaySpec = null;              // the last replay, for Backspace to run again (until a take-over)
let acc = 0, last = 0;
const held = new Set();             // the held keys' names
let latched = 0;                    // keys pressed since the last tick (a tap shorter than a tick)
const camera = { x: 0, y: 0, ready: false };
const timing = { ms: 0, ticks: 0, shown: null, since: 0, table: 0 };
const looks = {};                   // resolver -> its player's animation {anim, time}
const images = {};                  // file -> HTMLImageElement
let tileCache = new Map();          // gid or "gid:frame" -> canvas with its flips
let tinted = {};                    // resolver -> player sheet in its ghost colours

// --- loading, with a progress bar -------------------------------------------------------------
function progress(fraction, text) {
  $("bar-fill").style.width = `${Math.round(fraction * 100)}%`;
  if (text) $("loading-text").textContent = text;
}

async function fetchAll(files) {
  // Fetch the big files while counting their bytes: the bar shows how far the download is.
  // Python's loader fetches the same files again, from the browser's cache.
  const total = files.reduce((n, f) => n + f.size, 0) || 1;
  let got = 0;
  const read = async (f) => {
    const res = await fetch(f.url);
    if (!res.ok) throw new Error(`${f.url}: ${res.status} ${res.statusText}`);
    const reader = res.body.getReader();
    const parts = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      got += value.length;
      progress(0.8 * Math.min(got / total, 1), `Loading Python… ${(got / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`);
    }
    return new Blob(parts).arrayBuffer();
  };
  return Promise.all(files.map(read));
}

function toJs(proxy) {
  const value = proxy.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  proxy.destroy();
  return value;
}

// A call into web/page.py whose mistakes are the user's (a map, a link): [value, error line].
function attempt(fn, ...args) {
  const result = web.attempt(fn, ...args);
  const value = result.get(0), error = result.get(1);
  result.destroy();
  return [value, error];
}

async function boot() {
  manifest = await (await fetch("manifest.json")).json();
  fillMapList();
  const sizes = manifest.sizes;
  const [zip] = await fetchAll([{ url: "app.zip", size: sizes["app.zip"] },
    ...["pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip"].map(
      (f) => ({ url: `pyodide/${f}`, size: sizes[`pyodide/${f}`] }))]);
  performance.mark("fetched");
  progress(0.82, "Starting Python…");
  py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href,
    stdout: (line) => console.log(line), stderr: (line) => console.warn(line) });
  performance.mark("python started");
  progress(0.9, "Unpacking the game…");
  py.unpackArchive(zip, "zip", { extractDir: "/app" });
  py.runPython("import os, sys; sys.path.insert(0, '/app'); os.chdir('/app')");
  progress(0.95, "Importing the game…");
  web = py.pyimport("web.page");
  performance.mark("game imported");
  resolvers = toJs(web.resolver_list());
  keyBits = toJs(web.KEY_BITS.copy());
  fillResolverTable();
  await loadImages(["player.png", "walker.png", "items.png"].map((f) => `assets/${f}`));
  makeTints();
  progress(1, "");
  document.body.dataset.state = "ready";
  $("map").disabled = false;
  $("link").disabled = false;
  await startFromAddress();
  requestAnimationFrame(frame);
}

function fillMapList() {
  const select = $("map");
  const groups = [["Levels", (m) => !m.lab], ["Collision lab scenarios", (m) => m.lab]];
  for (const [label, wanted] of groups) {
    const group = document.createElement("optgroup");
    group.label = label;
    for (const m of manifest.maps.filter(wanted)) {
      const option = document.createElement("option");
      option.value = m.path;
      option.textContent = `${m.title} (${m.path})`;
      group.append(option);
    }
    if (group.children.length) select.append(group);
  }
  if (manifest.unreadable.length) {
    const box = $("unreadable");
    box.hidden = false;
    box.textContent = "Not in this page, as the browser has no zstandard library to read them: " +
      manifest.unreadable.map((u) => u.error).join("  ");
  }
}

function loadImages(files) {
  return Promise.all(files.filter((f) => !images[f]).map((f) => new Promise((resolve) => {
    const img = new Image();
    img.onload = () => { images[f] = img; resolve(); };
    img.onerror = () => { images[f] = null; resolve(); };
    img.src = f;
  })));
}

// --- starting a level ---------------------------------------------------------------------------
async function startFromAddress() {
  const path = params.get("level") || manifest.maps[0].path;
  let script = params.get("input"), ticks = params.get("ticks");
  const trace = params.get("trace") === "1";
  if (resolvers.some((r) => r.name === params.get("you"))) you = params.get("you");
  debug = params.get("debug") === "1";
  if (ticks !== null || script !== null || trace) {
    if (ticks === null) return fail(`error: link: ${script !== null ? "input=" : "trace=1"} needs ticks=N, how many ticks to replay`);
    const [n, error] = attempt(web.link_ticks, ticks);
    if (error) return fail(error);
    replay = { text: script || "", ticks: n, trace };
  }
  await openMap(path, replay);
}

async function openMap(path, withReplay = null) {
  $("map").value = path;
  const listed = manifest.maps.find((m) => m.path === path);
  if (!listed) {
    const bad = manifest.unreadable.find((u) => u.path === path);
    return fail(bad ? bad.error : `error: link: level=${JSON.stringify(path)} is not one of this page's maps; pick one from the list`);
  }
  document.body.dataset.state = "opening";
  message("Loading the level…");
  await new Promise((r) => setTimeout(r, 0));  // let the message show
  if (session) session.destroy();
  session = null;
  const [opened, error] = attempt(web.Session, path, you, Boolean(withReplay && withReplay.trace));
  if (error) return fail(error);
  session = opened;
  you = session.you;
  performance.mark("level loaded");
  level = JSON.parse(session.level_data());
  tileCache = new Map();
  const files = new Set();
  for (const t of Object.values(level.tiles)) files.add(t[0]);
  for (const frames of Object.values(level.anims)) for (const f of frames) files.add(f[0]);
  const backdrop = BACKDROPS[level.backdrop];
  if (backdrop) for (const f of backdrop) files.add(`assets/${f}`);
  await loadImages([...files]);
  lab = null;
  $("scenario").hidden = true;
  $("resolvers").classList.remove("scenario");
  if (listed.lab) {
    lab = toJs(web.lab_row(path));
    showScenario(lab);
    if (!withReplay) withReplay = { text: lab.script, ticks: lab.ticks, trace: false, lab: true };
  }
  replaySpec = withReplay;
  replay = withReplay && { ...withReplay };
  if (replay) {
    const [, scriptError] = attempt(session.play_script, replay.text);
    if (scriptError) { replay = replaySpec = null; return fail(scriptError); }
  }
  camera.ready = false;
  paused = false;
  acc = 0;
  $("link-box").hidden = true;
  readState();
  message([...level.notes, replay ? replayText() : "Playing: use the keys below. Click the picture first if keys do nothing."].join("\n"));
  document.body.dataset.state = "ready";
  syncButtons();
  if (replay && replay.ticks === 0) endReplay();  // nothing to run: its trace is empty
  else if (replay && replay.trace) runFast();
  else $("view").focus();
}

function replayText() {
  const what = replay.lab ? "the scenario's own script" : "the link's input script";
  return `Replaying ${what} for ${replay.ticks} ticks with every resolver; a key that moves takes over.`;
}

function fail(line) {
  message(line, true);
  document.body.dataset.state = "error";
  level = null; state = null;
  drawMessage(line);
}

function message(text, error = false) {
  $("message").textContent = text;
  $("message").classList.toggle("error", error);
}

function showScenario(row) {
  $("scenario").hidden = false;
  $("scenario-title").textContent = `Lab scenario: ${row.title}`;
  $("scenario-about").textContent = row.about;
  $("scenario-measure").textContent = `${row.ticks} ticks; goal ${row.expect_goal ? "expected" : "not expected"}; ` +
    `measures ${row.measure}: ${row.measure_text}. ✓: the goal was reached exactly when the scenario expects it; ✗: not.`;
  $("resolvers").classList.add("scenario");
  for (const r of resolvers) document.querySelector(`#row-${r.name} .lab`).textContent = row.cells[r.name];
}

// --- the resolvers' table -----------------------------------------------------------------------
function fillResolverTable() {
  const body = document.querySelector("#resolvers tbody");
  for (const r of resolvers) {
    const row = document.createElement("tr");
    row.id = `row-${r.name}`;
    const a = r.article;
    row.innerHTML = `<td class="name"><span class="swatch"></span><button></button></td>
      <td class="summary"></td><td class="article"><a></a><span></span></td>
      <td class="now"></td><td class="lab"></td>`;
    row.querySelector(".swatch").style.background = rgb(r.colour);
    row.querySelector("button").textContent = r.name;
    row.querySelector("button").title = `play ${r.name} (the others become its ghosts)`;
    row.querySelector("button").addEventListener("click", () => choose(r.name));
    row.querySelector(".summary").textContent = r.summary;
    const link = row.querySelector(".article a");
    link.href = a.url;
    link.textContent = a.title;
    row.querySelector(".article span").textContent = `, ${a.author}, ${a.year}`;
    body.append(row);
  }
}

function updateResolverTable() {
  if (!state) return;
  for (const w of state.worlds) {
    const row = $(`row-${w.name}`);
    row.classList.toggle("you", w.name === you);
    let where;
    if (w.name === you) where = "you";
    else if (w.parted) where = `parted at tick ${w.parted[0]}`;
    else where = "with you";
    const flags = [w.respawning ? "respawning" : "", w.goal ? "goal" : ""].filter(Boolean).join(", ");
    row.querySelector(".now").textContent = `x ${w.x.toFixed(2)} y ${w.y.toFixed(2)}  ${where}${flags ? "  " + flags : ""}`;
  }
}

function choose(name) {
  if (!session || !level || name === you) return;
  you = name;
  session.set_you(name);
  readState();
  $("view").focus();
}

// --- the keyboard and the buttons ---------------------------------------------------------------
const CODE_TO_KEY = {};
for (const [name, codes] of Object.entries(HELD_KEYS)) for (const c of codes) CODE_TO_KEY[c] = name;

function inForm(e) {
  // Keys typed into the page's controls are theirs (Tab moves between them); the game's keys
  // are read while the picture or nothing else has the focus.
  const t = e.target;
  return Boolean(t && t !== document.body && t !== canvas && t !== document.documentElement);
}

window.addEventListener("keydown", (e) => {
  if (inForm(e) || !session || !level) return;
  const name = CODE_TO_KEY[e.code];
  if (name) {
    e.preventDefault();
    if (!e.repeat && !paused) latched |= keyBits[name];
    held.add(name);
    return;
  }
  const action = {
    KeyP: "pause", Period: "step", KeyT: "slow", KeyG: "ghosts", F3: "debug", Tab: "resolver",
    Backspace: "restart", Home: "first",
  }[e.code];
  if (!action) return;
  e.preventDefault();
  act(action, e.shiftKey);
});
window.addEventListener("keyup", (e) => { const n = CODE_TO_KEY[e.code]; if (n) held.delete(n); });
window.addEventListener("blur", () => held.clear());

function act(action, shift = false) {
  if (!session || !level) return;  // no level in play (still loading, or refused)
  if (action === "pause") { paused = !paused; acc = 0; }
  else if (action === "step" && paused) { tick(); readState(); }
  else if (action === "slow") slow = (slow + 1) % SPEEDS.length;
  else if (action === "ghosts") ghosts = !ghosts;
  else if (action === "debug") { debug = !debug; readState(); }
  else if (action === "resolver") {
    const names = resolvers.map((r) => r.name);
    choose(names[(names.indexOf(you) + (shift ? -1 : 1) + names.length) % names.length]);
  } else if (action === "restart") restart();
  else if (action === "first") openMap(manifest.maps[0].path);
  syncButtons();
}

function restart() {
  if (!session || !level) return;
  session.restart();
  replay = replaySpec && { ...replaySpec, trace: false };
  if (replay) {
    session.play_script(replay.text);
    message(replayText());
    paused = false;
  }
  camera.ready = false;
  acc = 0;
  readState();
}

function syncButtons() {
  $("pause").textContent = paused ? "Resume" : "Pause";
  $("pause").classList.toggle("on", paused);
  $("step").disabled = !paused;
  $("slow").textContent = slow ? `Speed 1/${1 / SPEEDS[slow]}` : "Speed 1";
  $("ghosts").checked = ghosts;
  $("debug").checked = debug;
}

$("pause").addEventListener("click", () => act("pause"));
$("step").addEventListener("click", () => act("step"));
$("slow").addEventListener("click", () => act("slow"));
$("restart").addEventListener("click", () => act("restart"));
$("ghosts").addEventListener("change", (e) => { ghosts = e.target.checked; $("view").focus(); });
$("debug").addEventListener("change", (e) => { debug = e.target.checked; readState(); $("view").focus(); });
$("map").addEventListener("change", (e) => { replay = null; openMap(e.target.value); });
$("link").addEventListener("click", copyLink);
for (const b of document.querySelectorAll("#controls button")) b.addEventListener("mouseup", () => $("view").focus());

async function copyLink() {
  if (!session || !level) return;
  const url = new URL(location.pathname, location.href);
  const query = { level: level.path, input: session.recording(), ticks: String(session.tick), you };
  if (debug) query.debug = "1";
  url.search = new URLSearchParams(query).toString();
  $("link-box").hidden = false;
  $("link-text").value = url.href;
  $("link-text").select();
  let copied = false;
  try { await navigator.clipboard.writeText(url.href); copied = true; } catch { /* shown below instead */ }
  message(copied ? `Copied a link that replays these ${session.tick} ticks (every resolver, your keys).`
    : `A link that replays these ${session.tick} ticks: copy it from the box below.`);
}

// --- stepping -----------------------------------------------------------------------------------
function keysNow() {
  let bits = latched;
  latched = 0;
  for (const name of held) bits |= keyBits[name];
  return bits;
}

function tick() {
  const bits = keysNow();
  const t0 = performance.now();
  if (replay && bits === 0) session.step();
  else {
    if (replay) { replay = replaySpec = null; message("You took over: playing with the keys."); }
    session.step(bits);
  }
  timing.ms += performance.now() - t0;
  timing.ticks += 1;
  if (replay && session.tick >= replay.ticks) endReplay();
}

function endReplay() {
  paused = true;
  syncButtons();
  if (replay.trace) {
    const pre = $("trace");
    pre.textContent = session.trace();
    pre.hidden = false;
  }
  message(`Replay done: ${replay.ticks} ticks with every resolver${replay.trace ? "; the trace is below" : ""}. ` +
    "P plays on from here with the keys; Backspace replays again.");
  document.body.dataset.state = "done";
  replay = null;
}

function readState() {
  if (!session) return;
  const t0 = performance.now();
  const m = 48;
  const [vw, vh] = viewSize();
  state = JSON.parse(session.state(debug, [camera.x - m, camera.y - m, camera.x + vw + m, camera.y + vh + m]));
  timing.ms += performance.now() - t0;
  if (paused || t0 - timing.table > 100) { updateResolverTable(); timing.table = t0; }
  document.body.dataset.tick = state.tick;
}

function runFast() {
  // A replay with &trace=1 runs as fast as Python goes, a slice at a time so the page stays
  // responsive, and writes the trace when done.
  const slice = () => {
    if (!replay) return;
    const end = performance.now() + 40;
    while (replay && performance.now() < end) tick();
    readState();
    if (replay) setTimeout(slice, 0);
  };
  setTimeout(slice, 0);
}

function frame(now) {
  const dt = Math.min((now - (last || now)) / 1000, level ? level.max_frame_time : 0.25);
  last = now;
  if (session && level && !paused && !(replay && replay.trace)) {
    const tickDt = 1 / level.tick_rate;
    acc += dt * SPEEDS[slow];
    let n = 0;
    while (acc >= tickDt && n < level.max_ticks_per_frame && !paused) {
      tick();
      acc -= tickDt;
      n += 1;
    }
    if (n >= level.max_ticks_per_frame) acc = Math.min(acc, tickDt);
    if (n) readState();
  }
  if (now - timing.since > 500 && timing.ticks) {
    timing.shown = timing.ms / timing.ticks;
    timing.ms = 0; timing.ticks = 0; timing.since = now;
    $("speed").textContent = `${timing.shown.toFixed(2)} ms/tick, ${resolvers.length} worlds`;
    $("speed").dataset.msPerTick = timing.shown.toFixed(3);
  }
  if (level && state) draw(paused || !level ? 1 : Math.min(acc * level.tick_rate, 1), dt);
  requestAnimationFrame(frame);
}

// --- drawing ------------------------------------------------------------------------------------
const canvas = $("view");
const ctx = canvas.getContext("2d");

function zoom() {
  if (!level) return 3;
  const w = level.cols * level.tw, h = level.rows * level.th;
  return Math.max(3, Math.min(6, Math.floor(Math.min(CANVAS_W / w, CANVAS_H / h))));
}

function viewSize() {
  const z = zoom();
  return [CANVAS_W / z, CANVAS_H / z];
}

function blend(w, alpha) {
  return [w.px + (w.x - w.px) * alpha, w.py + (w.y - w.py) * alpha];
}

function moveCamera(me, alpha, dt) {
  const [vw, vh] = viewSize();
  const mw = level.cols * level.tw, mh = level.rows * level.th;
  const [x, y] = blend(me, alpha);
  const tx = x + me.w / 2 - vw / 2, ty = y + me.h / 2 - vh / 2;
  const clamp = (v, view, size) => (size <= view ? (size - view) / 2 : Math.min(Math.max(v, 0), size - view));
  if (!camera.ready) { camera.x = tx; camera.y = ty; camera.ready = true; }
  if (!me.respawning) {
    camera.x = tx;  // across: centred on you, as the game's camera
    camera.y += (ty - camera.y) * Math.min(1, dt * 8);
  }
  camera.x = clamp(camera.x, vw, mw);
  camera.y = clamp(camera.y, vh, mh);
}

function draw(alpha, dt) {
  const z = zoom();
  const [vw, vh] = viewSize();
  const me = state.worlds.find((w) => w.name === you);
  moveCamera(me, alpha, dt);
  const ox = px(camera.x), oy = px(camera.y);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.imageSmoothingEnabled = false;
  drawBackdrop(z, ox, oy, vw, vh);
  ctx.setTransform(z, 0, 0, z, -ox * z, -oy * z);
  const layers = level.layers;
  for (const la of layers) if (!la.front && !la.door) drawLayer(la, ox, oy, vw, vh);
  drawDoors(ox, oy, vw, vh);
  drawItems();
  drawGoals();
  drawWalkers();
  drawBodies(alpha);
  const labels = ghosts ? drawGhosts(alpha, dt) : [];
  if (!me.respawning) drawPlayer(me, alpha, null, dt);
  for (const la of layers) if (la.front && !la.door) drawLayer(la, ox, oy, vw, vh);
  if (debug) drawDebug(me, alpha, ox, oy, vw, vh);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.font = "bold 13px ui-monospace, monospace";
  ctx.textAlign = "center";
  const placed = [];  // names that would overlap go one above the other
  for (const [name, x, y, colour] of labels) {
    const w = ctx.measureText(name).width;
    let lx = (x - ox) * z, ly = (y - oy) * z - 4;
    while (placed.some(([px0, py0, pw]) => Math.abs(px0 - lx) < (pw + w) / 2 && Math.abs(py0 - ly) < 14)) ly -= 14;
    placed.push([lx, ly, w]);
    ctx.fillStyle = "rgba(0,0,0,0.6)";
    ctx.fillText(name, lx + 1, ly + 1);
    ctx.fillStyle = rgb(colour);
    ctx.fillText(name, lx, ly);
  }
  status(me);
}

function status(me) {
  const parts = [`tick ${state.tick}`, `you: ${you}`];
  if (state.replaying) parts.push("replay");
  if (paused) parts.push("paused (. steps a tick)");
  if (slow) parts.push(`1/${1 / SPEEDS[slow]} speed`);
  if (me.goal) parts.push("goal!");
  if (state.walkers_total) parts.push(`${state.walkers_total} walkers`);
  $("status").textContent = parts.join("  ·  ");
}

function drawBackdrop(z, ox, oy, vw, vh) {
  const files = BACKDROPS[level.backdrop];
  const sky = files && images[`assets/${files[0]}`], hills = files && images[`assets/${files[1]}`];
  ctx.fillStyle = level.background ? rgb(level.background) : "#000";
  ctx.fillRect(0, 0, CANVAS_W, CANVAS_H);
  if (!sky) return;
  ctx.drawImage(sky, 0, 0, CANVAS_W, CANVAS_H);
  if (!hills) return;
  // The hills move at a third of the camera's speed across, a sixth up and down.
  const hw = hills.width, hh = hills.height;
  let x = -(((Math.floor(ox / 3) % hw) + hw) % hw);
  const y = vh - hh + Math.floor(Math.max(0, level.rows * level.th - vh - oy) / 6);
  for (; x < vw; x += hw) ctx.drawImage(hills, x * z, y * z, hw * z, hh * z);
}

function tileCanvas(gid, time) {
  // The tile's picture with its flips (and, if animated, the frame showing at ``time`` ms).
  const anim = level.anims[gid];
  let source = level.tiles[gid];
  let key = gid;
  if (!source) return null;
  if (anim) {
    const total = anim.reduce((n, f) => n + f[2], 0);
    let t = time % total, i = 0;
    while (t >= anim[i][2]) { t -= anim[i][2]; i += 1; }
    key = `${gid}:${i}`;
    source = [anim[i][0], anim[i][1] || source[1], source[2], source[3], source[4], source[5]];
  }
  let c = tileCache.get(key);
  if (c !== undefined) return c;
  const [file, rect, fh, fv, fd, size] = source;
  const img = images[file];
  if (!img) { tileCache.set(key, null); return null; }
  const [sx, sy, w, h] = rect || [0, 0, img.width, img.height];
  const [dw, dh] = size || [w, h];
  c = document.createElement("canvas");
  c.width = fd ? dh : dw;
  c.height = fd ? dw : dh;
  const g = c.getContext("2d");
  g.imageSmoothingEnabled = false;
  // Tiled's order: the diagonal flip (x and y swapped) first, then across, then up and down.
  g.translate(c.width / 2, c.height / 2);
  g.scale(fh ? -1 : 1, fv ? -1 : 1);
  if (fd) g.transform(0, 1, 1, 0, 0, 0);
  g.drawImage(img, sx, sy, w, h, -dw / 2, -dh / 2, dw, dh);
  tileCache.set(key, c);
  return c;
}

function drawLayer(la, ox, oy, vw, vh, cells = null, alpha = 1) {
  if (!la.visible) return;
  const { tw, th, cols, rows } = level;
  const [dx, dy] = la.offset;
  const time = performance.now();
  ctx.globalAlpha = la.opacity * alpha;
  const c0 = Math.max(0, Math.floor((ox - dx) / tw) - 2), c1 = Math.min(cols, Math.ceil((ox - dx + vw) / tw) + 1);
  const r0 = Math.max(0, Math.floor((oy - dy) / th) - 1), r1 = Math.min(rows, Math.ceil((oy - dy + vh) / th) + 3);
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      const i = r * cols + c;
      const gid = la.gids[i];
      if (!gid || (cells && !cells.has(i))) continue;
      const img = tileCanvas(gid, time);
      if (!img) continue;
      const off = level.offsets[gid] || [0, 0];
      ctx.drawImage(img, c * tw + dx + off[0], (r + 1) * th - img.height + dy + off[1]);
    }
  }
  ctx.globalAlpha = 1;
}

function drawDoors(ox, oy, vw, vh) {
  // A door's layers: solid while it is shut, faded while it is open (game/view/living.py).
  for (const [name, cells] of Object.entries(level.doors)) {
    const open = state.doors_open[name];
    const set = new Set(cells);
    for (const la of level.layers) if (la.door === name) drawLayer(la, ox, oy, vw, vh, set, open ? OPEN_DOOR_ALPHA : 1);
  }
}

function item(name, x, y) {
  const sheet = images["assets/items.png"];
  if (sheet) ctx.drawImage(sheet, ITEMS.indexOf(name) * FRAME, 0, FRAME, FRAME, x, y, FRAME, FRAME);
}

function drawItems() {
  for (const [id, x, y, w, h] of level.checkpoints) {
    item(id === state.checkpoint ? "checkpoint_on" : "checkpoint_off", px(x + w / 2) - 8, px(y + h) - 16);
  }
  for (const [id, mode, x, y, w, h] of level.switches) {
    const frameName = mode === "lever" ? (state.levers.includes(id) ? "lever_on" : "lever_off")
      : (state.touching.includes(id) ? "plate_down" : "plate_up");
    item(frameName, px(x + w / 2) - 8, px(y + h) - 16);
  }
  const spin = `coin${Math.floor(state.tick / 8) % 4}`;
  for (const [id, x, y, w, h] of level.coins) {
    if (!state.coins_taken.includes(id)) item(spin, px(x + w / 2) - 8, px(y + h / 2) - 8);
  }
}

function drawGoals() {
  const glow = 120 + Math.floor(60 * (1 + Math.sin(performance.now() / 1000 * 4)) / 2);
  ctx.fillStyle = rgb(GOAL_GLOW, glow / 4 / 255);
  for (const [x, y, w, h] of level.goals) ctx.fillRect(px(x), px(y), Math.max(1, px(w)), Math.max(1, px(h)));
}

function drawWalkers() {
  const sheet = images["assets/walker.png"];
  if (!sheet) return;
  const count = Math.max(1, Math.floor(sheet.width / FRAME));
  for (const [x, y, w, h, , , facing] of state.walkers) {
    const f = Math.floor(x / 3) % count;  // the frame follows the distance walked
    const sx = px(x + w / 2) - 8, sy = px(y + h) - FRAME;
    if (facing >= 0) ctx.drawImage(sheet, f * FRAME, 0, FRAME, FRAME, sx, sy, FRAME, FRAME);
    else {
      ctx.save();
      ctx.translate(sx + FRAME, sy);
      ctx.scale(-1, 1);
      ctx.drawImage(sheet, f * FRAME, 0, FRAME, FRAME, 0, 0, FRAME, FRAME);
      ctx.restore();
    }
  }
}

function drawBodies(alpha) {
  for (const [x, y, w, h, prevX, prevY, oneWay] of state.platforms) {
    const bx = px(prevX + (x - prevX) * alpha), by = px(prevY + (y - prevY) * alpha);
    const [body, light, line] = oneWay ? PLATFORM.oneway : PLATFORM.solid;
    ctx.fillStyle = body;
    ctx.fillRect(bx, by, px(w), px(h));
    ctx.strokeStyle = line;
    ctx.lineWidth = 1;
    ctx.strokeRect(bx + 0.5, by + 0.5, px(w) - 1, px(h) - 1);
    ctx.fillStyle = light;
    ctx.fillRect(bx + 1, by + 1, px(w) - 2, 1);
  }
  for (const [x, y, w, h, vx, vy, facing, prevX, prevY] of state.spears) {
    const cx = prevX + (x - prevX) * alpha + w / 2, cy = prevY + (y - prevY) * alpha + h / 2;
    const still = vx === 0 && vy === 0;
    const angle = still ? (facing < 0 ? Math.PI : 0) : Math.atan2(vy, vx);
    const tipX = still ? cx + facing * (w / 2 + 2) : cx + Math.cos(angle) * SPEAR_LENGTH / 2;
    const tipY = still ? cy : cy + Math.sin(angle) * SPEAR_LENGTH / 2;
    ctx.strokeStyle = "rgb(120,84,48)";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(tipX - Math.cos(angle) * SPEAR_LENGTH, tipY - Math.sin(angle) * SPEAR_LENGTH);
    ctx.lineTo(tipX, tipY);
    ctx.stroke();
    ctx.fillStyle = "rgb(214,220,230)";
    ctx.fillRect(tipX - 1.5, tipY - 1.5, 3, 3);
  }
}

function makeTints() {
  // Each ghost's player sheet: half way to its colour (game/view/world_view.py, tint()).
  const sheet = images["assets/player.png"];
  if (!sheet) return;
  for (const r of resolvers) {
    const c = document.createElement("canvas");
    c.width = sheet.width;
    c.height = sheet.height;
    const g = c.getContext("2d");
    g.drawImage(sheet, 0, 0);
    const data = g.getImageData(0, 0, c.width, c.height);
    const d = data.data;
    const mul = r.colour.map((v) => Math.floor(v / 2) + 64), add = r.colour.map((v) => Math.floor(v / 2));
    for (let i = 0; i < d.length; i += 4) {
      for (let k = 0; k < 3; k++) d[i + k] = Math.min(255, Math.floor(d[i + k] * mul[k] / 255) + add[k]);
    }
    g.putImageData(data, 0, 0);
    tinted[r.name] = c;
  }
}

function spriteFrame(w, dt) {
  // The player's animation, kept here per resolver (game/view/sprites.py, PlayerSprite).
  const look = looks[w.name] || (looks[w.name] = { anim: "idle", time: 0 });
  const anim = !w.ground ? "jump" : Math.abs(w.vx) > 8 ? "run" : "idle";
  if (anim !== look.anim) { look.anim = anim; look.time = 0; }
  let speed = 1;
  if (anim === "run") speed = Math.max(0.4, Math.min(1.5, Math.abs(w.vx) / 130));
  look.time += (paused ? 0 : dt) * speed * SPEEDS[slow];
  const [row, count, fps] = ANIMATIONS[anim];
  const i = anim === "jump" ? (w.vy < 0 ? 0 : 1) : Math.floor(look.time * fps) % count;
  return [i * FRAME, row * FRAME];
}

function feetOnSlope(x, y, w, h) {
  // On a slope the sprite stands on the surface under its centre (game/view/world_view.py).
  const cx = x + w / 2, bottom = y + h;
  const col = Math.floor(cx / level.tw), first = Math.floor((bottom - 1e-6) / level.th);
  for (const row of [first, first + 1]) {
    if (col < 0 || col >= level.cols || row < 0 || row >= level.rows) continue;
    const heights = level.slopes[row * level.cols + col];
    if (!heights) continue;
    const t = Math.min(Math.max((cx - col * level.tw) / level.tw, 0), 1);
    const surface = (row + 1) * level.th - (heights[0] + (heights[1] - heights[0]) * t);
    if (surface >= bottom - 1e-6) return Math.min(surface - bottom, level.th);
  }
  return 0;
}

function drawPlayer(w, alpha, colour, dt) {
  const sheet = colour ? tinted[w.name] : images["assets/player.png"];
  const [x, y] = blend(w, alpha);
  const r = resolvers.find((q) => q.name === w.name);
  const drop = w.ground && r.slopes ? feetOnSlope(x, y, w.w, w.h) : 0;
  const sx = px(x + w.w / 2) - 8, sy = px(y + w.h + drop) - FRAME;
  if (sheet) {
    const [fx, fy] = spriteFrame(w, dt);
    ctx.save();
    if (colour) ctx.globalAlpha = GHOST_ALPHA;
    if (w.facing < 0) {
      ctx.translate(sx + FRAME, sy);
      ctx.scale(-1, 1);
      ctx.drawImage(sheet, fx, fy, FRAME, FRAME, 0, 0, FRAME, FRAME);
    } else ctx.drawImage(sheet, fx, fy, FRAME, FRAME, sx, sy, FRAME, FRAME);
    ctx.restore();
  }
  if (colour) {
    ctx.strokeStyle = rgb(colour);
    ctx.lineWidth = 1;
    ctx.strokeRect(px(x) + 0.5, px(y) + 0.5, px(w.w) - 1, px(w.h) - 1);
  }
  return [px(x + w.w / 2), sy];
}

function drawGhosts(alpha, dt) {
  // Every other resolver's player, translucent in its colour, its hitbox outlined; where it
  // parted from you, a ring, and a line to where it is now.
  const labels = [];
  for (const w of state.worlds) {
    if (w.name === you) continue;
    const colour = resolvers.find((r) => r.name === w.name).colour;
    const [x, y] = blend(w, alpha);
    if (w.parted) {
      const [, gx, gy] = w.parted;
      const sx = px(gx + w.w / 2), sy = px(gy + w.h / 2);
      ctx.strokeStyle = rgb(colour);
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(sx + 0.5, sy + 0.5);
      ctx.lineTo(px(x + w.w / 2) + 0.5, px(y + w.h / 2) + 0.5);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(sx + 0.5, sy + 0.5, 3, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (w.respawning) continue;
    const [lx, ly] = drawPlayer(w, alpha, colour, dt);
    if (w.parted) labels.push([w.name, lx, ly, colour]);  // one with you needs no name
  }
  return labels;
}

function drawPush(w, push, colour) {
  // A push-out: the corners of the box the move tried to reach, and a line from its centre to
  // where the resolver put the body (game/view/debug.py).
  const [ax, ay, rx, ry] = push;
  ctx.fillStyle = colour;
  for (const [cx, cy] of [[ax, ay], [ax + w.w - 1, ay], [ax, ay + w.h - 1], [ax + w.w - 1, ay + w.h - 1]]) {
    ctx.fillRect(px(cx), px(cy), 1, 1);
  }
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(px(ax + w.w / 2) + 0.5, px(ay + w.h / 2) + 0.5);
  ctx.lineTo(px(rx + w.w / 2) + 0.5, px(ry + w.h / 2) + 0.5);
  ctx.stroke();
  ctx.fillRect(px(rx + w.w / 2) - 0.5, px(ry + w.h / 2) - 0.5, 2, 2);
}

function drawDebug(me, alpha, ox, oy, vw, vh) {
  const { tw, th, cols, rows } = level;
  ctx.lineWidth = 1;
  const c0 = Math.max(0, Math.floor(ox / tw)), c1 = Math.min(cols, Math.ceil((ox + vw) / tw));
  const r0 = Math.max(0, Math.floor(oy / th)), r1 = Math.min(rows, Math.ceil((oy + vh) / th));
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) {
      const kind = level.kinds[r * cols + c];
      const colour = DEBUG_TILES[kind];
      if (!colour) continue;
      ctx.strokeStyle = colour;
      const x = c * tw, y = r * th;
      if (kind === 3) {
        const [left, right] = level.slopes[r * cols + c];
        ctx.beginPath();
        ctx.moveTo(x + 0.5, y + th - left + 0.5);
        ctx.lineTo(x + tw - 0.5, y + th - right + 0.5);
        ctx.lineTo(x + tw - 0.5, y + th - 0.5);
        ctx.lineTo(x + 0.5, y + th - 0.5);
        ctx.closePath();
        ctx.stroke();
      } else ctx.strokeRect(x + 0.5, y + 0.5, tw - 1, th - 1);
    }
  }
  ctx.fillStyle = PROBED;
  for (const [c, r] of me.probed || []) ctx.fillRect(c * tw, r * th, tw, th);
  if (ghosts) {
    for (const w of state.worlds) {
      if (w.name === you) continue;
      ctx.strokeStyle = rgb(resolvers.find((q) => q.name === w.name).colour);
      for (const [c, r] of w.probed || []) ctx.strokeRect(c * tw + 1.5, r * th + 1.5, tw - 3, th - 3);
    }
  }
  for (const w of state.worlds) {
    if (!w.push || (w.name !== you && !ghosts)) continue;
    drawPush(w, w.push, w.name === you ? PUSH_OUT : rgb(resolvers.find((q) => q.name === w.name).colour));
  }
  if (me.respawning) return;
  const [x, y] = blend(me, alpha);
  const bx = px(x), by = px(y), bw = px(me.w), bh = px(me.h);
  ctx.strokeStyle = me.ground ? HITBOX_STANDING : HITBOX_AIR;
  ctx.strokeRect(bx + 0.5, by + 0.5, bw - 1, bh - 1);
  const [ground, ceiling, left, right] = me.contacts || [];
  ctx.fillStyle = CONTACT_EDGE;
  if (ground) ctx.fillRect(bx, by + bh - 1, bw, 1);
  if (ceiling) ctx.fillRect(bx, by, bw, 1);
  if (left) ctx.fillRect(bx, by, 1, bh);
  if (right) ctx.fillRect(bx + bw - 1, by, 1, bh);
}

function drawMessage(line) {
  // A map that cannot be shown: its error line where the level would be, not a blank picture.
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = "#0c0d12";
  ctx.fillRect(0, 0, CANVAS_W, CANVAS_H);
  ctx.fillStyle = "#ff8f8f";
  ctx.font = "16px ui-monospace, monospace";
  ctx.textAlign = "left";
  const words = line.split(" ");
  let row = "", y = 60;
  for (const word of words) {
    if (ctx.measureText(row + word).width > CANVAS_W - 80) { ctx.fillText(row, 40, y); row = ""; y += 24; }
    row += word + " ";
  }
  ctx.fillText(row, 40, y);
}

boot().catch((err) => {
  console.error(err);
  document.body.dataset.state = "error";
  message(`The page could not start: ${err.message || err}`, true);
  $("loading").style.display = "none";
});

/*
 * tilecollide's check inside Tiled (Tiled 1.8 or newer; its JavaScript API).
 *
 * Runs the game's own loader on the map open in Tiled, `main.py --headless --ticks 1 --level MAP`
 * through Tiled's Process, and shows what the game says about it: every `note:` (what the game
 * guessed) and `error:` (what stops it) line as an issue in Tiled's Issues view (View > Views
 * and Toolbars > Issues). Beside those, what only Tiled can see: a tile of class `slope` whose
 * collision properties were left at the class's defaults, which Tiled does not save (so the
 * game never sees them).
 *
 * - Map > Check with tilecollide (F6): saves the map if it has changes, then checks it.
 * - The export format `tilecollide-check` writes the same findings as a text report, and fails
 *   when the game cannot load the map, so a script can check levels with Tiled's own reader:
 *       tiled --export-map tilecollide-check levels/06_my_level.tmx /tmp/report.txt
 *   (exit code 0: the game loads it; 1: it does not, with the game's error line on stderr).
 *
 * Tiled loads this file from the project's extensions folder (levels/extensions, set in
 * levels/tilecollide.tiled-project) when the project is open; its command line reads only the
 * user's extensions folder (~/.config/tiled/extensions on Linux): link this file there.
 * How to enable it: docs/levels.md, section 6.
 */

(function () {
    "use strict";

    var ACTION = "CheckWithTilecollide";
    var FORMAT = "tilecollide-check";
    var SLOPE_MEMBERS = ["collision", "slope_left", "slope_right"];
    // This file, as Tiled loads it: known only while it is being read, so kept now.
    var SCRIPT = typeof __filename !== "undefined" ? __filename : "";

    // --- paths ---------------------------------------------------------------------------------

    function folderOf(path) {
        var cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
        return cut > 0 ? path.substring(0, cut) : path;
    }

    function isGameRoot(dir) {
        return File.exists(dir + "/main.py") && File.exists(dir + "/game/cli.py");
    }

    // The first folder at or above `start` that holds the game (main.py and game/), or "".
    function rootAbove(start) {
        var dir = start;
        for (var i = 0; dir && i < 16; ++i) {
            if (isGameRoot(dir)) {
                return dir;
            }
            var up = folderOf(dir);
            if (up === dir) {
                break;
            }
            dir = up;
        }
        return "";
    }

    // This file's real path, through a symbolic link (POSIX: realpath, else readlink -f).
    function realPath(path) {
        var tools = [["realpath", [path]], ["readlink", ["-f", path]]];
        for (var i = 0; i < tools.length; ++i) {
            try {
                var p = new Process();
                if (p.exec(tools[i][0], tools[i][1], false) === 0) {
                    var out = p.readStdOut().trim();
                    if (out) {
                        return out;
                    }
                }
            } catch (e) {
                // not there: try the next one
            }
        }
        return path;
    }

    // The game's folder: above the map, else above this file (or where its link points).
    function gameRoot(mapPath) {
        var root = mapPath ? rootAbove(folderOf(mapPath)) : "";
        if (!root && SCRIPT) {
            root = rootAbove(folderOf(SCRIPT)) || rootAbove(folderOf(realPath(SCRIPT)));
        }
        return root;
    }

    // How to run main.py: the project's own environment if `uv sync` made one, else uv.
    function gameCommand(root) {
        var pythons = [root + "/.venv/bin/python", root + "/.venv/Scripts/python.exe"];
        for (var i = 0; i < pythons.length; ++i) {
            if (File.exists(pythons[i])) {
                return [pythons[i], ["main.py"]];
            }
        }
        return ["uv", ["run", "main.py"]];
    }

    // --- the checks ----------------------------------------------------------------------------

    // What the game says about the map at `mapPath`: [{kind, text}], kind "error" or "note".
    function gameFindings(mapPath) {
        var root = gameRoot(mapPath);
        if (!root) {
            return {ran: false, findings: [{kind: "error", text: "error: cannot find the game " +
                "(main.py and game/) above the map or this extension; link the extension " +
                "into Tiled's extensions folder instead of copying it (docs/levels.md, section 6)"}]};
        }
        var command = gameCommand(root);
        var args = command[1].concat(["--headless", "--ticks", "1", "--level", mapPath]);
        var p = new Process();
        p.workingDirectory = root;
        var code;
        try {
            code = p.exec(command[0], args, false);
        } catch (e) {
            code = -2;
        }
        var out = p.readStdOut();
        var err = p.readStdErr();
        var findings = [];
        err.split(/\r?\n/).forEach(function (line) {
            if (line.indexOf("error:") === 0) {
                findings.push({kind: "error", text: line});
            } else if (line.indexOf("note:") === 0) {
                findings.push({kind: "note", text: line});
            }
        });
        if (code !== 0 && !findings.some(function (f) { return f.kind === "error"; })) {
            var said = err.trim().split(/\r?\n/).pop() || ("exit code " + code);
            findings.push({kind: "error", text: "error: " + command[0] + " did not run the game (" +
                said + "); if uv is not on the PATH Tiled sees, run `uv sync` in " + root});
        }
        return {ran: code === 0, summary: out.trim(), findings: findings};
    }

    function className(tile) {
        return tile.className !== undefined ? tile.className : tile.type;  // 1.9+ : 1.8
    }

    // Tiles of class `slope` missing a member of their own: Tiled shows the class's default,
    // but saves a class member only once it is changed on the tile.
    function slopeFindings(map) {
        var findings = [];
        map.tilesets.forEach(function (tileset) {
            tileset.tiles.forEach(function (tile) {
                if (className(tile) !== "slope") {
                    return;
                }
                var own = tile.properties();
                var shown = tile.resolvedProperties();
                SLOPE_MEMBERS.forEach(function (name) {
                    if (own[name] !== undefined) {
                        return;
                    }
                    var value = shown[name] !== undefined ? " (" + shown[name] + ")" : "";
                    findings.push({kind: "warning", tile: tile, text: "tile " + tile.id +
                        " of tileset " + tileset.name + " has the class slope but no " + name +
                        " of its own: Tiled does not save a class member left at its default" +
                        value + ", so the game never sees it; add " + name + " to the tile as a " +
                        "plain property (docs/levels.md, section 3)"});
                });
            });
        });
        return findings;
    }

    // --- showing them --------------------------------------------------------------------------

    function selectObjectNamed(map, text) {
        var m = /\(id (\d+)\)/.exec(text);
        if (!m || !map.layers) {
            return;
        }
        var id = Number(m[1]);
        var found = [];
        function search(layers) {
            layers.forEach(function (layer) {
                if (layer.isObjectLayer) {
                    layer.objects.forEach(function (o) { if (o.id === id) { found.push(o); } });
                } else if (layer.isGroupLayer) {
                    search(layer.layers);
                }
            });
        }
        search(map.layers);
        if (found.length) {
            map.selectedObjects = found;
        }
    }

    function toIssues(map, findings) {
        findings.forEach(function (f) {
            var activated = function () {
                if (f.tile) {
                    tiled.activeAsset = f.tile.tileset;
                } else {
                    selectObjectNamed(map, f.text);
                }
            };
            if (f.kind === "error") {
                tiled.error("tilecollide: " + f.text, activated);
            } else {
                tiled.warn("tilecollide: " + f.text, activated);
            }
        });
    }

    function check(map, mapPath) {
        var game = gameFindings(mapPath);
        var findings = game.findings.concat(slopeFindings(map));
        var errors = findings.filter(function (f) { return f.kind === "error"; });
        return {ok: game.ran && errors.length === 0, summary: game.summary || "",
                findings: findings, errors: errors};
    }

    function report(result, name) {
        var lines = result.findings.map(function (f) {
            return f.kind === "warning" ? "warning: " + f.text : f.text;
        });
        lines.push(result.ok ? "ok: the game loads " + name + (result.summary ? " (" +
                   result.summary + ")" : "") : "failed: the game cannot load " + name);
        return lines.join("\n") + "\n";
    }

    // --- Map > Check with tilecollide ----------------------------------------------------------

    var action = tiled.registerAction(ACTION, function () {
        var map = tiled.activeAsset;
        if (!map || !map.isTileMap) {
            tiled.alert("Open a map first: Check with tilecollide checks the map being edited.");
            return;
        }
        if (!map.fileName) {
            tiled.alert("Save the map first: the game checks the map's file.");
            return;
        }
        if (map.modified) {
            tiled.trigger("Save");
        }
        var result = check(map, map.fileName);
        toIssues(map, result.findings);
        tiled.log("tilecollide: " + report(result, map.fileName).trim());
        if (result.findings.length === 0) {
            tiled.alert("The game loads this map: no notes, no errors.\n\n" + result.summary);
        }
    });
    action.text = "Check with tilecollide";
    action.shortcut = "F6";
    try {
        tiled.extendMenu("Map", [{separator: true}, {action: ACTION}]);
    } catch (e) {
        // Tiled's command line has no menus
    }

    // --- the export format: `tiled --export-map tilecollide-check MAP REPORT` -------------------

    tiled.registerMapFormat(FORMAT, {
        name: "tilecollide check (report)",
        extension: "txt",
        write: function (map, fileName) {
            var mapPath = map.fileName;
            var copy = "";
            if (!mapPath) {
                // Tiled's command line hands over the map without its file name: the game checks
                // a copy written by Tiled's own writer beside the report (relative paths, such as
                // the tileset's and next_level, are rewritten to still point at the same files).
                copy = folderOf(fileName) + "/.tilecollide-check-" + Date.now() + ".tmx";
                var failed = tiled.mapFormat("tmx").write(map, copy);
                if (failed) {
                    return "cannot write a copy of the map beside the report (" + failed + ")";
                }
                mapPath = copy;
            }
            var result;
            try {
                result = check(map, mapPath);
            } finally {
                if (copy) {
                    File.remove(copy);
                }
            }
            var name = copy ? "the map" : mapPath;
            result.findings.forEach(function (f) {
                if (copy) {
                    f.text = f.text.split(copy).join(name);
                }
                (f.kind === "error" ? console.error : console.warn)(f.kind === "warning" ?
                    "warning: " + f.text : f.text);
            });
            toIssues(map, result.findings);
            var out = new TextFile(fileName, TextFile.WriteOnly);
            out.write(report(result, name).split(copy || "\u0000").join(name));
            out.commit();
            if (!result.ok) {
                return result.errors.length ? result.errors[0].text : "the game cannot load the map";
            }
            return "";
        }
    });
})();

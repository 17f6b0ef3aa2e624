"""Drawing the living level's objects and doors (``game.maps.tiles``, ``game.sim.living``): coins not yet
taken, checkpoints (the flag raised on the current one), levers and plates, and the door layers,
solid while closed and faded while open. Also the HUD's line about them.

The door layers are left out of the map renderer's cached surfaces (they change while playing);
they are drawn here, each tick's state, between the map and the sprites.
"""

from __future__ import annotations

from pathlib import Path

import pygame

ITEMS_PNG = Path(__file__).resolve().parent.parent.parent / "assets" / "items.png"
ITEM_NAMES = ("coin0", "coin1", "coin2", "coin3", "checkpoint_off", "checkpoint_on", "lever_off",
              "lever_on", "plate_up", "plate_down")  # the frames of items.png, 16x16, in order
OPEN_DOOR_ALPHA = 70  # 0..255: how much of an open door is still drawn
COIN_FRAME_TICKS = 8  # ticks per frame of a coin's spin


class ItemSprites:
    def __init__(self, path: Path = ITEMS_PNG) -> None:
        try:
            sheet = pygame.image.load(str(path))
        except (pygame.error, FileNotFoundError):
            sheet = pygame.Surface((16 * len(ITEM_NAMES), 16), pygame.SRCALPHA)
        if pygame.display.get_surface() is not None:
            sheet = sheet.convert_alpha()
        self.frames = {name: sheet.subsurface((i * 16, 0, 16, 16))
                       for i, name in enumerate(ITEM_NAMES)}
        self._faded: dict[int, pygame.Surface] = {}

    def draw(self, scene: pygame.Surface, world, origin: tuple[int, int], images) -> None:
        flow, feat = world.flow, world.level.features
        if not feat.alive:
            return
        ox, oy = origin
        g = world.level.grid
        for name, door in feat.doors.items():
            is_open = flow.doors_open[name]
            for layer in world.level.view.layers:
                if layer.door != name or not layer.visible:
                    continue
                for i in door.cells:
                    row, col = divmod(i, g.cols)
                    img = images.get(layer.gids[row][col])
                    if img is None:
                        continue
                    if is_open:
                        img = self._fade(img)
                    scene.blit(img, (col * g.tile_w - ox, row * g.tile_h - oy))
        for cp in feat.checkpoints:
            frame = "checkpoint_on" if cp.id == flow.checkpoint else "checkpoint_off"
            self._at_bottom(scene, frame, cp.box, origin)
        for s in feat.switches:
            if s.mode == "lever":
                frame = "lever_on" if flow.levers[s.id] else "lever_off"
            else:
                frame = "plate_down" if s.id in flow.touching else "plate_up"
            self._at_bottom(scene, frame, s.box, origin)
        spin = f"coin{world.tick // COIN_FRAME_TICKS % 4}"
        for coin in feat.coins:
            if coin.id not in flow.coins:
                b = coin.box
                scene.blit(self.frames[spin], (round(b.x + b.w / 2) - 8 - ox,
                                               round(b.y + b.h / 2) - 8 - oy))

    def _at_bottom(self, scene, frame: str, box, origin) -> None:
        scene.blit(self.frames[frame], (round(box.x + box.w / 2) - 8 - origin[0],
                                        round(box.y + box.h) - 16 - origin[1]))

    def _fade(self, img: pygame.Surface) -> pygame.Surface:
        faded = self._faded.get(id(img))
        if faded is None:
            faded = img.copy()
            faded.set_alpha(OPEN_DOOR_ALPHA)
            self._faded[id(img)] = faded
        return faded


def hud_line(world) -> str | None:
    """'coins 2/5   checkpoint 1/3' for a level with coins or checkpoints, else None."""
    feat, flow = world.level.features, world.flow
    parts = []
    if feat.coins:
        parts.append(f"coins {len(flow.coins)}/{len(feat.coins)}")
    if feat.checkpoints:
        ids = [cp.id for cp in feat.checkpoints]
        where = (f"{ids.index(flow.checkpoint) + 1}/{len(ids)}" if flow.checkpoint in ids
                 else "start")
        parts.append(f"checkpoint {where}")
    return "   ".join(parts) or None

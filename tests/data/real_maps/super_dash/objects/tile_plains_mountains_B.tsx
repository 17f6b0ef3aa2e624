<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_plains_mountains_B" tilewidth="832" tileheight="576" tilecount="1" columns="1">
 <image source="tile_plains_mountains_B.png" width="832" height="576"/>
</tileset>

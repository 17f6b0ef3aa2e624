<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_plains_hills_v02" tilewidth="64" tileheight="64" spacing="2" tilecount="216" columns="27">
 <image source="tile_plains_hills_v02.png" width="1782" height="528"/>
</tileset>

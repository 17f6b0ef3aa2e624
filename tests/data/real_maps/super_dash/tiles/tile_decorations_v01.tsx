<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_decorations_v01" tilewidth="128" tileheight="64" spacing="4" tilecount="30" columns="5">
 <image source="tile_decorations_v01.png" width="660" height="204"/>
</tileset>

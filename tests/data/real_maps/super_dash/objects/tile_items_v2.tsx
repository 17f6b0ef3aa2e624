<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_items_v2" tilewidth="64" tileheight="64" tilecount="4" columns="2">
 <image source="tile_items_v2.png" width="128" height="128"/>
</tileset>

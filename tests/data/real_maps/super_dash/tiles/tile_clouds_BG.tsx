<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_clouds_BG" tilewidth="64" tileheight="64" spacing="2" tilecount="72" columns="8">
 <image source="tile_clouds_BG.png" width="528" height="594"/>
</tileset>

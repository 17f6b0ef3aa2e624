<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tile_plains_hills_v01" tilewidth="64" tileheight="64" spacing="2" tilecount="78" columns="13">
 <image source="tile_plains_hills_v01.png" width="858" height="396"/>
</tileset>

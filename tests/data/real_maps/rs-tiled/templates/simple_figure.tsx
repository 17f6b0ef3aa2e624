<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.5" tiledversion="1.7.2" name="simple_figure" tilewidth="32" tileheight="32" tilecount="18" columns="3">
 <image source="../tilesheet.png" width="96" height="192"/>
</tileset>

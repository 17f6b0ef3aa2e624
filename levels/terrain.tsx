<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="terrain" tilewidth="16" tileheight="16" tilecount="50" columns="8">
 <image source="../assets/terrain.png" width="128" height="112"/>
 <tile id="0">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="4" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="5" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="12" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="0"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="13" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="16"/>
  </properties>
 </tile>
 <tile id="14" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="16"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="15" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="one_way"/>
  </properties>
 </tile>
 <tile id="40" type="hazard">
  <properties>
   <property name="hazard" type="bool" value="true"/>
  </properties>
  <objectgroup draworder="index" id="2">
   <object id="1" x="1" y="8" width="14" height="8"/>
  </objectgroup>
 </tile>
 <tile id="41" type="hazard">
  <properties>
   <property name="hazard" type="bool" value="true"/>
  </properties>
  <objectgroup draworder="index" id="2">
   <object id="1" x="0" y="4" width="16" height="12"/>
  </objectgroup>
 </tile>
 <tile id="42" type="hazard">
  <properties>
   <property name="hazard" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="43" type="ice">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
   <property name="friction" type="float" value="0.15"/>
  </properties>
 </tile>
 <tile id="44" type="ice">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
   <property name="friction" type="float" value="0.15"/>
  </properties>
 </tile>
 <tile id="45" type="water">
  <properties>
   <property name="water" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="46" type="water">
  <properties>
   <property name="water" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="47">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="solid"/>
  </properties>
 </tile>
 <tile id="48" type="slope">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="slope"/>
   <property name="slope_left" type="int" value="8"/>
   <property name="slope_right" type="int" value="8"/>
  </properties>
 </tile>
 <tile id="49">
  <properties>
   <property name="collision" type="string" propertytype="collision" value="ladder"/>
  </properties>
 </tile>
</tileset>

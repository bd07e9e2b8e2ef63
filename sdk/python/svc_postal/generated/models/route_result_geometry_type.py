from enum import StrEnum


class RouteResultGeometryType(StrEnum):
    LINESTRING = "LineString"

    def __str__(self) -> str:
        return str(self.value)

"""The grid of RULES F: one coordinate system for dots, line slots and boxes.

`x` is the column (0..W-1), `y` the row (0..H-1). Cells are addressed by a flat
index ``y * W + x`` so that states can keep the board in ``bytearray``s.

A `Geometry` holds everything that depends only on the field size and is
computed once per size: which cells are line slots, the four sides of each box,
the boxes next to each slot, and the box neighbours in the four AI directions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .texts import english

DEFAULT_HEIGHT = 19
DEFAULT_WIDTH = 33
MIN_SIZE = 7
MAX_HEIGHT = 41
MAX_WIDTH = 81

# RULES F3: 1 right, 2 up, 3 left, 4 down; neighbouring boxes are 2 cells apart.
DIRECTIONS: dict[int, tuple[int, int]] = {1: (2, 0), 2: (0, -2), 3: (-2, 0), 4: (0, 2)}


class FieldSizeError(ValueError):
    """A field size outside RULES F1."""


def check_size(height: int, width: int) -> None:
    """Raise `FieldSizeError` unless ``height × width`` is allowed by RULES F1."""
    if height % 2 == 0 or width % 2 == 0:
        raise FieldSizeError(english("field size must be odd in both directions, got "
                                     "{height}x{width}", height=height, width=width))
    if not (MIN_SIZE <= height <= MAX_HEIGHT and MIN_SIZE <= width <= MAX_WIDTH):
        raise FieldSizeError(english(
            "field size must be between {least}x{least} and {most_height}x{most_width}, "
            "got {height}x{width}", least=MIN_SIZE, most_height=MAX_HEIGHT,
            most_width=MAX_WIDTH, height=height, width=width))


def is_line_slot(x: int, y: int) -> bool:
    return (x + y) % 2 == 1


def is_box(x: int, y: int) -> bool:
    return x % 2 == 1 and y % 2 == 1


def box_sides(x: int, y: int) -> tuple[tuple[int, int], ...]:
    """The four sides of the box at (x, y), in RULES F2's order."""
    return ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y))


@dataclass(frozen=True)
class Geometry:
    height: int
    width: int
    slots: tuple[int, ...] = field(repr=False)
    wall_slots: tuple[int, ...] = field(repr=False)
    inner_slots: tuple[int, ...] = field(repr=False)
    boxes: tuple[int, ...] = field(repr=False)
    sides_of_box: dict[int, tuple[int, int, int, int]] = field(repr=False)
    boxes_of_slot: dict[int, tuple[int, ...]] = field(repr=False)
    # box index -> ((direction, neighbour box index), ...) for boxes inside the field
    neighbours: dict[int, tuple[tuple[int, int], ...]] = field(repr=False)
    # (index, x, y) of every line slot / every box, row by row (for readers)
    slot_points: tuple[tuple[int, int, int], ...] = field(repr=False, compare=False)
    box_points: tuple[tuple[int, int, int], ...] = field(repr=False, compare=False)

    @property
    def cells(self) -> int:
        return self.height * self.width

    def index(self, x: int, y: int) -> int:
        return y * self.width + x

    def xy(self, index: int) -> tuple[int, int]:
        y, x = divmod(index, self.width)
        return x, y

    def inside(self, x: int, y: int) -> bool:
        return 0 <= x < self.width and 0 <= y < self.height


@lru_cache(maxsize=64)
def geometry(height: int = DEFAULT_HEIGHT, width: int = DEFAULT_WIDTH) -> Geometry:
    check_size(height, width)
    slots: list[int] = []
    walls: list[int] = []
    inner: list[int] = []
    boxes: list[int] = []
    for y in range(height):
        for x in range(width):
            i = y * width + x
            if is_line_slot(x, y):
                slots.append(i)
                on_wall = (y % 2 == 0 and y in (0, height - 1)) or (
                    x % 2 == 0 and x in (0, width - 1)
                )
                (walls if on_wall else inner).append(i)
            elif is_box(x, y):
                boxes.append(i)
    sides_of_box: dict[int, tuple[int, int, int, int]] = {}
    boxes_of_slot: dict[int, list[int]] = {i: [] for i in slots}
    for b in boxes:
        bx, by = b % width, b // width
        top, bottom, left, right = (sy * width + sx for sx, sy in box_sides(bx, by))
        sides = sides_of_box[b] = (top, bottom, left, right)
        for s in sides:
            boxes_of_slot[s].append(b)
    neighbours: dict[int, tuple[tuple[int, int], ...]] = {}
    for b in boxes:
        bx, by = b % width, b // width
        near = []
        for direction, (dx, dy) in DIRECTIONS.items():
            nx, ny = bx + dx, by + dy
            if 0 < nx < width and 0 < ny < height:
                near.append((direction, ny * width + nx))
        neighbours[b] = tuple(near)
    return Geometry(
        height=height,
        width=width,
        slots=tuple(slots),
        wall_slots=tuple(walls),
        inner_slots=tuple(inner),
        boxes=tuple(boxes),
        sides_of_box=sides_of_box,
        boxes_of_slot={k: tuple(v) for k, v in boxes_of_slot.items()},
        neighbours=neighbours,
        slot_points=tuple((i, i % width, i // width) for i in slots),
        box_points=tuple((b, b % width, b // width) for b in boxes),
    )

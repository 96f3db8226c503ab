# Type stubs for the part of django-tables2 the site uses (the package ships
# none): the players list's table, its columns, its paginator and its
# request configuration.  Signatures follow django-tables2 3.0.
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Self

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

class Column:
    verbose_name: str | None
    def __init__(
        self,
        verbose_name: str | None = None,
        accessor: str | Callable[..., Any] | None = None,
        default: object = None,
        visible: bool = True,
        orderable: bool | None = None,
        attrs: Mapping[str, Any] | None = None,
        order_by: str | Iterable[str] | None = None,
        empty_values: Iterable[object] | None = None,
        localize: bool | None = None,
        footer: object = None,
        exclude_from_export: bool = False,
        linkify: bool | str | Mapping[str, Any] | Callable[..., Any] = False,
        initial_sort_descending: bool = False,
    ) -> None: ...

class DateColumn(Column):
    def __init__(self, format: str | None = None, short: bool = True, *args: Any, **kwargs: Any) -> None: ...

class BoundColumn:
    column: Column
    name: str

class BoundColumns:
    def __getitem__(self, index: int | str) -> BoundColumn: ...
    def __iter__(self) -> Iterator[BoundColumn]: ...

class BoundRow:
    #: The object of the row (a model instance for a queryset).
    record: Any

class Table:
    columns: BoundColumns
    page: Page[BoundRow]
    paginator: Paginator[BoundRow]
    def __init__(
        self,
        data: Any = None,
        order_by: str | Iterable[str] | None = None,
        orderable: bool | None = None,
        empty_text: str | None = None,
        exclude: Iterable[str] | None = None,
        attrs: Mapping[str, Any] | None = None,
        row_attrs: Mapping[str, Any] | None = None,
        pinned_row_attrs: Mapping[str, Any] | None = None,
        sequence: Iterable[str] | None = None,
        prefix: str | None = None,
        order_by_field: str | None = None,
        page_field: str | None = None,
        per_page_field: str | None = None,
        template_name: str | None = None,
        default: object = None,
        request: HttpRequest | None = None,
        show_header: bool | None = None,
        show_footer: bool = True,
        extra_columns: Iterable[tuple[str, Column]] | None = None,
    ) -> None: ...
    def paginate(
        self,
        paginator_class: type[Paginator[Any]] = ...,
        per_page: int | None = None,
        page: int = 1,
        *args: Any,
        **kwargs: Any,
    ) -> Self: ...
    def as_values(self, exclude_columns: Iterable[str] | None = None) -> Iterator[list[Any]]: ...

class RequestConfig:
    def __init__(self, request: HttpRequest, paginate: bool | Mapping[str, Any] = True) -> None: ...
    def configure(self, table: Table) -> Table: ...

"""Model choice fields that a form narrows for each request.

``Form.fields`` maps names to plain ``Field``s, so setting the queryset of
one of them needs the field as what it is: ``field_of`` gives it, checked.
``LabelledChoiceField`` takes its option labels from a function the form
sets (overriding ``label_from_instance`` in a subclass is Django's
documented way to label the options)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.db.models import Model, QuerySet

F = TypeVar("F", bound=forms.Field)
M = TypeVar("M", bound=Model)


class LabelledChoiceField(forms.ModelChoiceField[M]):
    """A model choice whose labels come from ``label_of`` when a form sets it."""

    label_of: Callable[[M], str] | None = None

    def label_from_instance(self, obj: M) -> str:
        return self.label_of(obj) if self.label_of is not None else super().label_from_instance(obj)


def field_of(form: forms.BaseForm, name: str, kind: type[F]) -> F:
    """The form's field ``name``, which must be a ``kind``."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{type(form).__name__}.{name} is a {type(field).__name__}, not a {kind.__name__}")
    return field


def choices_of(form: forms.BaseForm, name: str) -> QuerySet[Any]:
    """The objects the form's model choice field ``name`` offers."""
    queryset = field_of(form, name, forms.ModelChoiceField).queryset
    if queryset is None:
        raise TypeError(f"{type(form).__name__}.{name} offers no queryset")
    return queryset

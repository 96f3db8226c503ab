"""A record sheet's Atom feed (Django's syndication framework): its new
results and the results late games changed, with the reason."""

from __future__ import annotations

from datetime import datetime

from django.contrib.syndication.views import Feed
from django.http import HttpRequest
from django.utils.feedgenerator import Atom1Feed

from ratings.models import Player
from ratings.notices.changes import Item, feed_items, moment
from ratings.views.players import get_player


class RecordSheetFeed(Feed[Item, Player]):
    feed_type = Atom1Feed

    def get_object(self, request: HttpRequest, slug: str) -> Player:
        return get_player(slug)

    def title(self, obj: Player) -> str:
        return f"{obj}: record sheet on {obj.rating_list}"

    def subtitle(self, obj: Player) -> str:
        return "New results, and results a game entered late changed, with the reason."

    def link(self, obj: Player) -> str:
        return obj.get_absolute_url()

    def items(self, obj: Player) -> list[Item]:
        return feed_items(obj)

    def item_title(self, item: Item) -> str:
        return item.title

    def item_description(self, item: Item) -> str:
        return item.text

    def item_link(self, item: Item) -> str:
        return item.path

    def item_guid(self, item: Item) -> str:
        return f"{item.path}#{item.key}"

    item_guid_is_permalink = False

    def item_pubdate(self, item: Item) -> datetime:
        return moment(item.when)

    def item_updateddate(self, item: Item) -> datetime:
        return moment(item.when)

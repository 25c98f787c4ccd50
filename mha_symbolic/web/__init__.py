"""The interactive page (`mha-symbolic serve`): a web app over the same renderers."""

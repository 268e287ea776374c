// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {DevSwapFactory} from "./DevSwapFactory.sol";
import {DevSwapPair} from "./DevSwapPair.sol";
import {WETH} from "./WETH.sol";

interface IERC20Transfers {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// The part of the Uniswap V2 router the dev chain needs: add/remove liquidity and exact-input swaps
/// (token->token, ETH->token, token->ETH) over multi-hop paths.
contract DevSwapRouter {
    DevSwapFactory public immutable factory;
    WETH public immutable weth;
    /// keccak256 of DevSwapPair's creation code: pairs are CREATE2 children of the factory, so their
    /// addresses are computed, not looked up (a constructor argument keeps the pair's code out of ours).
    bytes32 private immutable pairCodeHash;

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "DevSwapRouter: EXPIRED");
        _;
    }

    constructor(DevSwapFactory factory_, WETH weth_, bytes32 pairCodeHash_) {
        factory = factory_;
        weth = weth_;
        pairCodeHash = pairCodeHash_;
    }

    /// Only WETH unwrapping sends ether here.
    receive() external payable {
        require(msg.sender == address(weth), "DevSwapRouter: ETH");
    }

    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair = factory.getPair(tokenA, tokenB);
        if (pair == address(0)) pair = factory.createPair(tokenA, tokenB);
        (amountA, amountB) = _liquidityAmounts(pair, tokenA, tokenB, amountADesired, amountBDesired);
        require(amountA >= amountAMin && amountB >= amountBMin, "DevSwapRouter: INSUFFICIENT_AMOUNT");
        _transferFrom(tokenA, msg.sender, pair, amountA);
        _transferFrom(tokenB, msg.sender, pair, amountB);
        liquidity = DevSwapPair(pair).mint(to);
    }

    function removeLiquidity(
        address tokenA,
        address tokenB,
        uint256 liquidity,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB) {
        address pair = _pairOf(tokenA, tokenB);
        _transferFrom(pair, msg.sender, pair, liquidity);
        (uint256 amount0, uint256 amount1) = DevSwapPair(pair).burn(to);
        (amountA, amountB) = tokenA < tokenB ? (amount0, amount1) : (amount1, amount0);
        require(amountA >= amountAMin && amountB >= amountBMin, "DevSwapRouter: INSUFFICIENT_AMOUNT");
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = _amountsOutAtLeast(amountIn, amountOutMin, path);
        _transferFrom(path[0], msg.sender, _pairOf(path[0], path[1]), amounts[0]);
        _swap(amounts, path, to);
    }

    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        ensure(deadline)
        returns (uint256[] memory amounts)
    {
        require(path[0] == address(weth), "DevSwapRouter: INVALID_PATH");
        amounts = _amountsOutAtLeast(msg.value, amountOutMin, path);
        weth.deposit{value: amounts[0]}();
        require(weth.transfer(_pairOf(path[0], path[1]), amounts[0]), "DevSwapRouter: TRANSFER_FAILED");
        _swap(amounts, path, to);
    }

    function swapExactTokensForETH(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        require(path[path.length - 1] == address(weth), "DevSwapRouter: INVALID_PATH");
        amounts = _amountsOutAtLeast(amountIn, amountOutMin, path);
        _transferFrom(path[0], msg.sender, _pairOf(path[0], path[1]), amounts[0]);
        _swap(amounts, path, address(this));
        uint256 amountOut = amounts[amounts.length - 1];
        weth.withdraw(amountOut);
        (bool ok,) = to.call{value: amountOut}("");
        require(ok, "DevSwapRouter: ETH_TRANSFER_FAILED");
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) public view returns (uint256[] memory amounts) {
        require(path.length >= 2, "DevSwapRouter: INVALID_PATH");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i < path.length - 1; i++) {
            (uint256 reserveIn, uint256 reserveOut) = _reserves(path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) public pure returns (uint256) {
        require(amountIn > 0, "DevSwapRouter: INSUFFICIENT_INPUT_AMOUNT");
        require(reserveIn > 0 && reserveOut > 0, "DevSwapRouter: INSUFFICIENT_LIQUIDITY");
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    function _amountsOutAtLeast(uint256 amountIn, uint256 amountOutMin, address[] calldata path)
        private
        view
        returns (uint256[] memory amounts)
    {
        amounts = getAmountsOut(amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "DevSwapRouter: INSUFFICIENT_OUTPUT_AMOUNT");
    }

    /// Walks the path: each pair pays out to the next pair, the last one to `to`.
    function _swap(uint256[] memory amounts, address[] calldata path, address to) private {
        for (uint256 i; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            uint256 amountOut = amounts[i + 1];
            (uint256 amount0Out, uint256 amount1Out) = input < output ? (uint256(0), amountOut) : (amountOut, uint256(0));
            address recipient = i < path.length - 2 ? _pairOf(output, path[i + 2]) : to;
            DevSwapPair(_pairOf(input, output)).swap(amount0Out, amount1Out, recipient);
        }
    }

    /// Desired amounts trimmed to the pair's current ratio (all of both for a new pair).
    function _liquidityAmounts(address pair, address tokenA, address tokenB, uint256 desiredA, uint256 desiredB)
        private
        view
        returns (uint256, uint256)
    {
        (uint256 reserveA, uint256 reserveB) = _reservesOf(pair, tokenA, tokenB);
        if (reserveA == 0 && reserveB == 0) return (desiredA, desiredB);
        uint256 optimalB = (desiredA * reserveB) / reserveA;
        if (optimalB <= desiredB) return (desiredA, optimalB);
        return ((desiredB * reserveA) / reserveB, desiredB);
    }

    function _reserves(address tokenA, address tokenB) private view returns (uint256, uint256) {
        return _reservesOf(_pairOf(tokenA, tokenB), tokenA, tokenB);
    }

    function _reservesOf(address pair, address tokenA, address tokenB) private view returns (uint256, uint256) {
        (uint112 reserve0, uint112 reserve1,) = DevSwapPair(pair).getReserves();
        return tokenA < tokenB ? (uint256(reserve0), uint256(reserve1)) : (uint256(reserve1), uint256(reserve0));
    }

    function _pairOf(address tokenA, address tokenB) private view returns (address) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt = keccak256(abi.encodePacked(token0, token1));
        return address(uint160(uint256(keccak256(abi.encodePacked(hex"ff", address(factory), salt, pairCodeHash)))));
    }

    function _transferFrom(address token, address from, address to, uint256 value) private {
        require(IERC20Transfers(token).transferFrom(from, to, value), "DevSwapRouter: TRANSFER_FROM_FAILED");
    }
}
